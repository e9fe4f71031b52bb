import Foundation
import PlatformCore

/// The end of an account (U9): its owner deletes it, re-authenticated where it has a password or PIN
/// (an install or OpenID Connect account has only its token to show); an admin deletes a user's or partner's,
/// never their own here nor another admin's (demoted first). Install accounts are made without a form and deleted
/// without a secret, and every deletion costs every service an event and a row it keeps: their deletions are
/// bounded per client address as their making is.
package struct EndAccount: Sendable {
    package let accounts: any CredentialRepository
    package let ends: any AccountEnds
    package let tries: TryLedger
    package let hasher: any SecretHashing
    package let limits: Limits

    package init(accounts: any CredentialRepository, ends: any AccountEnds, tries: TryLedger, hasher: any SecretHashing, limits: Limits) {
        self.accounts = accounts
        self.ends = ends
        self.tries = tries
        self.hasher = hasher
        self.limits = limits
    }

    package struct Limits: Sendable {
        /// Wrong passwords per dashboard account from every address together.
        package let passwordCeiling: AttemptLimit
        /// Wrong PINs per survey account from every address together.
        package let pinCeiling: AttemptLimit
        /// Install accounts deleted per client address (`INSTALL_DELETIONS_PER_ADDRESS`); every deletion counts.
        package let installDeletionsPerAddress: AttemptLimit

        package init(passwordCeiling: AttemptLimit, pinCeiling: AttemptLimit, installDeletionsPerAddress: AttemptLimit) {
            self.passwordCeiling = passwordCeiling
            self.pinCeiling = pinCeiling
            self.installDeletionsPerAddress = installDeletionsPerAddress
        }
    }

    package enum Refusal: Error, Equatable {
        /// The caller's own account is gone.
        case noAccount
        /// The account an admin named does not exist.
        case unknownAccount
        case ownAccount
        case adminAccount
        case reauthenticationFailed
    }

    /// `clientKey`: the caller's address, as the address limits key it.
    package func deleteOwn(_ id: UUID, password: String?, pin: String?, clientKey: String) async throws {
        guard let stored = try await accounts.credentials(id: id) else { throw Refusal.noAccount }
        try await reauthenticate(stored, password: password, pin: pin)
        guard stored.account.kind == .install else {
            guard try await ends.delete(id, by: .owner) else { throw Refusal.noAccount }
            return
        }
        // Kept once taken: it counts deletions, not failures; given back when there was nothing to delete.
        let attempt = try await tries.take(.installDeletion, subject: clientKey, limit: limits.installDeletionsPerAddress)
        guard try await tries.givingBack([attempt], { try await ends.delete(id, by: .owner) }) else {
            try await tries.release(attempt)
            throw Refusal.noAccount
        }
    }

    package func delete(_ id: UUID, byAdmin caller: String) async throws {
        guard AccountKey.of(id) != AccountKey.of(caller) else { throw Refusal.ownAccount }
        guard let target = try await accounts.credentials(id: id)?.account else { throw Refusal.unknownAccount }
        guard target.role != .admin else { throw Refusal.adminAccount }
        guard try await ends.delete(id, by: .admin) else { throw Refusal.unknownAccount }
    }

    /// The password of a dashboard account, the PIN of a survey account; a try against the account's ceiling is
    /// taken before the check and given back when it passes or never ran.
    private func reauthenticate(_ stored: StoredCredentials, password: String?, pin: String?) async throws {
        let (secret, hash, limit) =
            stored.passwordHash != nil
            ? (password, stored.passwordHash, limits.passwordCeiling)
            : (pin, stored.pinHash, limits.pinCeiling)
        guard let hash else { return }
        guard let secret = nonEmpty(secret) else { throw Refusal.reauthenticationFailed }
        let attempt = try await tries.take(.accountCeiling, subject: stored.account.id.uuidString, limit: limit)
        guard try await tries.givingBack([attempt], { try await hasher.verify(secret, against: hash) }) else {
            throw Refusal.reauthenticationFailed
        }
        try await tries.release(attempt)
    }
}
