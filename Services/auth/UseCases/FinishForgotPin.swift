import Foundation

/// Forgot-PIN, step 2 (U4, seed 3): the mailed code, then 5 tries to make PIN and confirmation match before the
/// app goes back to login. Wrong codes count against the same 5 tries, taken before the code is compared
/// (`LimitedCodeCheck`).
package struct FinishForgotPin: Sendable {
    package let accounts: any CredentialRepository
    package let pinResets: any PinResets
    package let codes: LimitedCodeCheck
    package let hasher: any SecretHashing
    /// The account's tries at the code and PIN steps together (the seed's 5).
    package let limit: AttemptLimit

    package init(
        accounts: any CredentialRepository, pinResets: any PinResets, codes: LimitedCodeCheck, hasher: any SecretHashing, limit: AttemptLimit
    ) {
        self.accounts = accounts
        self.pinResets = pinResets
        self.codes = codes
        self.hasher = hasher
        self.limit = limit
    }

    /// Why the step was refused, in the seed's terms; `attemptsLeft` 0 sends the app back to login.
    package enum Refusal: Error, Equatable {
        case emptyField
        case invalidEmail
        /// No survey account has the address: sign up.
        case notRegistered
        case triesExhausted
        case invalidCode(attemptsLeft: Int)
        case pinFormat
        case pinsDiffer(attemptsLeft: Int)
        /// The code was right but used or replaced before the PIN was stored.
        case codeNoLongerValid
    }

    /// The account's address once its new PIN is stored.
    package func run(email: String?, code: String?, pin: String?, confirmation: String?, clientKey: String) async throws -> EmailAddress {
        guard let emailText = nonEmpty(email), let code = nonEmpty(code) else { throw Refusal.emptyField }
        guard let email = EmailAddress(emailText) else { throw Refusal.invalidEmail }
        guard let stored = try await accounts.credentials(email: email), stored.account.kind == .survey else {
            throw Refusal.notRegistered
        }
        let account = stored.account.id
        let taken: LimitedCodeCheck.Taken
        do {
            taken = try await codes.take(.forgotPin, account: account, limit: limit, clientKey: clientKey)
        } catch is LimitedCodeCheck.UsedUp {
            throw Refusal.triesExhausted
        }
        guard code.count <= 12, try await pinResets.isValid(code: code, for: account) else {
            throw Refusal.invalidCode(attemptsLeft: taken.code.triesLeftIfFailed)
        }
        try await taken.releaseAddressAndBudget(codes.tries)
        let pin = pin ?? ""
        guard CredentialPolicy.isValidPin(pin) else {
            try await codes.tries.release(taken.code)
            throw Refusal.pinFormat
        }
        guard pin == confirmation else { throw Refusal.pinsDiffer(attemptsLeft: taken.code.triesLeftIfFailed) }
        let pinHash = try await codes.tries.givingBack([taken.code]) { try await hasher.hash(pin) }
        guard try await pinResets.complete(code: code, accountId: account, pinHash: pinHash) else { throw Refusal.codeNoLongerValid }
        try await codes.tries.attempts.clear(.forgotPin, subject: account.uuidString)
        try await codes.tries.attempts.clear(.surveyPin, subjectsStartingWith: AttemptSubject.owner(account))
        return email
    }
}
