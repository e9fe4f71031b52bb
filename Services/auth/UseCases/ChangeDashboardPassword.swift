import Foundation

/// A signed-in dashboard user changes their password (U3): the confirmation, the policy and the current password
/// are checked in the seed's order; the new hash ends every other session.
package struct ChangeDashboardPassword: Sendable {
    package let accounts: any CredentialRepository
    package let tries: TryLedger
    package let hasher: any SecretHashing
    /// Wrong current passwords per account.
    package let limit: AttemptLimit

    package init(accounts: any CredentialRepository, tries: TryLedger, hasher: any SecretHashing, limit: AttemptLimit) {
        self.accounts = accounts
        self.tries = tries
        self.hasher = hasher
        self.limit = limit
    }

    package enum Refusal: Error, Equatable {
        case emptyField
        case confirmationMismatch
        case weakPassword
        /// The caller is not a dashboard account with a password.
        case notDashboardAccount
        case wrongCurrentPassword
    }

    /// The account with its new password.
    package func run(userId: String, current: String?, new: String?, confirmation: String?) async throws -> Account {
        guard let current = nonEmpty(current), let new = nonEmpty(new), let confirmation = nonEmpty(confirmation) else {
            throw Refusal.emptyField
        }
        guard new == confirmation else { throw Refusal.confirmationMismatch }
        guard CredentialPolicy.isAcceptablePassword(new) else { throw Refusal.weakPassword }
        guard let id = UUID(uuidString: userId), let stored = try await accounts.credentials(id: id),
            stored.account.kind == .dashboard, let hash = stored.passwordHash
        else { throw Refusal.notDashboardAccount }
        let currentTry = try await tries.take(.dashboardPassword, subject: userId, limit: limit)
        let matches = try await tries.givingBack([currentTry]) { try await hasher.verify(current, against: hash) }
        guard matches else { throw Refusal.wrongCurrentPassword }
        try await tries.release(currentTry)
        let newHash = try await hasher.hash(new)
        try await accounts.setPasswordHash(newHash, for: id)
        return stored.account
    }
}
