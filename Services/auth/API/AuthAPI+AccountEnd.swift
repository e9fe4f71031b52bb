import Foundation
import PlatformCore
import PlatformHTTP

/// The end of an account (U9): its owner deletes it (re-authenticated where it has a password or PIN), an
/// admin deletes a user's or partner's, or an install account is merged into the account its app signed in to.
extension AuthAPI {
    func deleteMyAccount(_ input: Operations.DeleteMyAccount.Input) async throws -> Operations.DeleteMyAccount.Output {
        let id = try callerId()
        var given: (password: String?, pin: String?) = (nil, nil)
        if case .json(let body)? = input.body { given = (body.password, body.pin) }
        try await auth.endAccount(ends).deleteOwn(id, password: given.password, pin: given.pin, clientKey: RequestScope.clientKey)
        return .noContent(.init())
    }

    func deleteAccount(_ input: Operations.DeleteAccount.Input) async throws -> Operations.DeleteAccount.Output {
        let caller = try RequestScope.requireRole([.admin])
        let id = try Self.accountId(input.path.accountId)
        try await auth.endAccount(ends).delete(id, byAdmin: caller.id)
        return .noContent(.init())
    }

    func mergeInstallAccount(_ input: Operations.MergeInstallAccount.Input) async throws -> Operations.MergeInstallAccount.Output {
        let into = try callerId()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        _ = try await MergeInstallAccount(merges: ends).run(installRefreshToken: body.installRefreshToken, into: into)
        return .ok(.init(body: .json(try await profile(of: into))))
    }
}
