import Foundation
import PlatformCore
import PlatformHTTP

/// The end of an account (issue 29): its owner deletes it (re-authenticated where it has a password or PIN), an
/// admin deletes a user's or partner's, or an install account is merged into the account its app signed in to.
extension AuthAPI {
    func deleteMyAccount(_ input: Operations.DeleteMyAccount.Input) async throws -> Operations.DeleteMyAccount.Output {
        let id = try callerId()
        var given: (password: String?, pin: String?) = (nil, nil)
        if case .json(let body)? = input.body { given = (body.password, body.pin) }
        guard let stored = try await auth.accounts.credentials(id: id) else { throw Self.noAccount }
        try await reauthenticate(stored, password: given.password, pin: given.pin)
        guard try await ends.delete(id, by: "self") else { throw Self.noAccount }
        return .noContent(.init())
    }

    func deleteAccount(_ input: Operations.DeleteAccount.Input) async throws -> Operations.DeleteAccount.Output {
        let caller = try RequestScope.requireRole([.admin])
        let id = try Self.accountId(input.path.accountId)
        guard AccountKey.of(id) != AccountKey.of(caller.id) else {
            throw APIError(.conflict, code: "own_account", message: "an admin deletes their own account with DELETE /v1/me")
        }
        // The seed's admins edit and delete users and partners; another admin is demoted first (a role change).
        guard let target = try await auth.accounts.credentials(id: id)?.account else { throw AuthErrors.unknownAccount }
        guard target.role != .admin else {
            throw APIError(.conflict, code: "admin_account", message: "an admin account is made a user before it is deleted")
        }
        guard try await ends.delete(id, by: "admin") else { throw AuthErrors.unknownAccount }
        return .noContent(.init())
    }

    func mergeInstallAccount(_ input: Operations.MergeInstallAccount.Input) async throws -> Operations.MergeInstallAccount.Output {
        let into = try callerId()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        switch try await ends.mergeInstall(refreshToken: body.installRefreshToken, into: into) {
        case .merged: return .ok(.init(body: .json(try await profile(of: into))))
        case .invalidToken:
            throw APIError(.unauthorized, code: "invalid_refresh_token", message: "the install's refresh token is unknown, ended or expired")
        case .notAnInstall:
            throw APIError(
                .conflict, code: "not_an_install", message: "the refresh token is not another install account's with the role user")
        case .noAccount: throw Self.noAccount
        }
    }

    /// The owner proves it is them before the account goes: the password of a dashboard account, the PIN of a
    /// survey account; an account without either (install, OpenID Connect) has only its token to show.
    private func reauthenticate(_ stored: StoredCredentials, password: String?, pin: String?) async throws {
        let failed = APIError(.unauthorized, code: "reauthentication_failed", message: "the account's password or PIN is wrong or missing")
        let (secret, hash, limit): (String?, String?, AttemptLimit) =
            stored.passwordHash != nil
            ? (password, stored.passwordHash, auth.configuration.accountCeiling)
            : (pin, stored.pinHash, auth.configuration.pinAccountCeiling)
        guard let hash else { return }
        guard let secret = nonEmpty(secret) else { throw failed }
        let attempt = try await auth.takeTry(.accountCeiling, subject: stored.account.id.uuidString, limit: limit)
        guard try await auth.verify(secret, against: hash, tries: [attempt]) else { throw failed }
        try await auth.attempts.release(attempt)
    }
}
