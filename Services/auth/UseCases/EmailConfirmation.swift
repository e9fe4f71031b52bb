import Foundation

/// Confirming a survey account's email address with a mailed code: the coupon the hotel survey gives goes only to
/// confirmed addresses, so accounts made up by the hundred earn nothing. Asking for a code is limited per client
/// address (as recovery mails are) and per account; checking one takes its tries first (`LimitedCodeCheck`).
package enum EmailConfirmation {
    /// Why a step was refused; `invalidCode` keeps the app on the code screen with the tries left.
    package enum Refusal: Error, Equatable {
        case emptyField
        case invalidEmail
        /// No survey account has the address: sign up.
        case notRegistered
        case alreadyVerified
        case triesExhausted
        case invalidCode(attemptsLeft: Int)
    }

    /// The survey account with the address a request named.
    package static func surveyAccount(_ text: String?, in accounts: any CredentialRepository) async throws -> (Account, EmailAddress) {
        guard let emailText = nonEmpty(text) else { throw Refusal.emptyField }
        guard let email = EmailAddress(emailText) else { throw Refusal.invalidEmail }
        guard let stored = try await accounts.credentials(email: email), stored.account.kind == .survey else {
            throw Refusal.notRegistered
        }
        return (stored.account, email)
    }
}

/// Mails a survey account a new confirmation code.
package struct StartEmailConfirmation: Sendable {
    package let accounts: any CredentialRepository
    package let verifications: any EmailVerifications
    package let tries: TryLedger
    /// Recovery and confirmation mails per client address.
    package let mailsPerAddress: AttemptLimit
    /// Confirmation mails per account.
    package let mailsPerAccount: AttemptLimit

    package init(
        accounts: any CredentialRepository, verifications: any EmailVerifications, tries: TryLedger, mailsPerAddress: AttemptLimit,
        mailsPerAccount: AttemptLimit
    ) {
        self.accounts = accounts
        self.verifications = verifications
        self.tries = tries
        self.mailsPerAddress = mailsPerAddress
        self.mailsPerAccount = mailsPerAccount
    }

    /// The address the code went to.
    package func run(email: String?, clientKey: String) async throws -> EmailAddress {
        let (account, email) = try await EmailConfirmation.surveyAccount(email, in: accounts)
        guard try await !verifications.isVerified(account.id) else { throw EmailConfirmation.Refusal.alreadyVerified }
        let addressTry = try await tries.take(.recoveryMailAddress, subject: clientKey, limit: mailsPerAddress)
        _ = try await tries.givingBack([addressTry]) {
            try await tries.take(.verificationMail, subject: account.id.uuidString, limit: mailsPerAccount)
        }
        try await verifications.start(for: account, email: email)
        return email
    }
}

/// Uses a confirmation code: the account is confirmed once, and its tries are given back.
package struct VerifyEmail: Sendable {
    package let accounts: any CredentialRepository
    package let verifications: any EmailVerifications
    package let codes: LimitedCodeCheck
    /// Wrong codes per account.
    package let limit: AttemptLimit

    package init(accounts: any CredentialRepository, verifications: any EmailVerifications, codes: LimitedCodeCheck, limit: AttemptLimit) {
        self.accounts = accounts
        self.verifications = verifications
        self.codes = codes
        self.limit = limit
    }

    /// The address confirmed.
    package func run(email: String?, code: String?, clientKey: String) async throws -> EmailAddress {
        guard let code = nonEmpty(code) else { throw EmailConfirmation.Refusal.emptyField }
        let (account, email) = try await EmailConfirmation.surveyAccount(email, in: accounts)
        let taken: LimitedCodeCheck.Taken
        do {
            taken = try await codes.take(.verifyEmail, account: account.id, limit: limit, clientKey: clientKey)
        } catch is LimitedCodeCheck.UsedUp {
            throw EmailConfirmation.Refusal.triesExhausted
        }
        let outcome = code.count <= 12 ? try await verifications.verify(code: code, account: account, email: email) : .invalidCode
        switch outcome {
        case .invalidCode:
            throw EmailConfirmation.Refusal.invalidCode(attemptsLeft: taken.code.triesLeftIfFailed)
        case .alreadyVerified, .verified:
            try await codes.tries.release(taken.address, taken.budget, taken.code)
            if outcome == .alreadyVerified { throw EmailConfirmation.Refusal.alreadyVerified }
            return email
        }
    }
}
