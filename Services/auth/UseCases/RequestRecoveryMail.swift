import Foundation
import PlatformEvents

/// Asking for a recovery mail (U3's reset link, U4's forgot-PIN code): the account of the flow's kind with the
/// address, and the mail counted per client address and per account. An address that names no such account
/// counts against the caller's address like a failed login; one that does gives that try back.
package struct RequestRecoveryMail: Sendable {
    package let accounts: any CredentialRepository
    package let tries: TryLedger
    package let limits: Limits

    package init(accounts: any CredentialRepository, tries: TryLedger, limits: Limits) {
        self.accounts = accounts
        self.tries = tries
        self.limits = limits
    }

    package struct Limits: Sendable {
        /// Failed requests of any kind per client address.
        package let address: AttemptLimit
        /// Recovery mails per client address.
        package let mailsPerAddress: AttemptLimit
        /// Recovery mails per account.
        package let mailsPerAccount: AttemptLimit

        package init(address: AttemptLimit, mailsPerAddress: AttemptLimit, mailsPerAccount: AttemptLimit) {
            self.address = address
            self.mailsPerAddress = mailsPerAddress
            self.mailsPerAccount = mailsPerAccount
        }
    }

    package enum Refusal: Error, Equatable {
        case emptyField
        case invalidEmail
        /// No account of the flow's kind has the address.
        case notRegistered
    }

    /// The account to mail, its mail already counted; `TryLedger.Exhausted` when the caller or the account has had
    /// its share.
    package func account(email text: String?, kind: AccountKind, clientKey: String) async throws -> (Account, EmailAddress) {
        guard let emailText = nonEmpty(text) else { throw Refusal.emptyField }
        guard let email = EmailAddress(emailText) else { throw Refusal.invalidEmail }
        let addressTry = try await tries.take(.address, subject: clientKey, limit: limits.address)
        guard let stored = try await accounts.credentials(email: email), stored.account.kind == kind else { throw Refusal.notRegistered }
        try await tries.release(addressTry)
        let mailTry = try await tries.take(.recoveryMailAddress, subject: clientKey, limit: limits.mailsPerAddress)
        _ = try await tries.givingBack([mailTry]) {
            try await tries.take(.recoveryMail, subject: stored.account.id.uuidString, limit: limits.mailsPerAccount)
        }
        return (stored.account, email)
    }
}
