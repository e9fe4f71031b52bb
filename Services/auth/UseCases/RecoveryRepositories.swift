import Foundation

/// What the recovery and confirmation flows need from storage: the Postgres stores in the service, memory ones
/// in the unit tests.

/// Dashboard password-reset links (U3).
package protocol PasswordResets: Sendable {
    /// Whether the link's token is known, unused and not expired.
    func isUsable(token: String) async throws -> Bool
    /// Uses the token and sets the password; false when the token stopped being usable meanwhile.
    func complete(token: String, passwordHash: String) async throws -> Bool
}

/// Mailed forgot-PIN codes of survey accounts (U4).
package protocol PinResets: Sendable {
    func isValid(code: String, for accountId: UUID) async throws -> Bool
    /// Uses the code and sets the PIN; false when the code stopped being valid meanwhile.
    func complete(code: String, accountId: UUID, pinHash: String) async throws -> Bool
}

/// Mailed codes that confirm a survey account's email address.
package protocol EmailVerifications: Sendable {
    func isVerified(_ accountId: UUID) async throws -> Bool
    /// Mails a new code, retiring the earlier ones.
    func start(for account: Account, email: EmailAddress) async throws
    func verify(code: String, account: Account, email: EmailAddress) async throws -> EmailVerificationOutcome
}

/// Mailing a dashboard reset link (U3): one live link per account, asking again retires the earlier ones.
package protocol ResetLinkMails: Sendable {
    func request(for account: Account, email: EmailAddress, linkBase: String) async throws
}

/// Mailing a forgot-PIN code (U4): a new code retires the account's earlier ones.
package protocol PinCodeMails: Sendable {
    func start(for account: Account, email: EmailAddress) async throws
}
