import Foundation

/// A hotel-survey login (U4, U7): email and 4-character PIN. Three wrong PINs a day per account and client
/// address, then the app sends the guest to forgot-PIN; the tries are taken before the PIN is checked (as in
/// `DashboardLogin`).
package struct SurveyLogin: Sendable {
    package let accounts: any CredentialRepository
    package let tries: TryLedger
    package let hasher: any SecretHashing
    package let limits: Limits

    package init(accounts: any CredentialRepository, tries: TryLedger, hasher: any SecretHashing, limits: Limits) {
        self.accounts = accounts
        self.tries = tries
        self.hasher = hasher
        self.limits = limits
    }

    package struct Limits: Sendable {
        /// Failed logins of any kind per client address.
        package let address: AttemptLimit
        /// Wrong PINs per account and client address (the seed's 3 a day).
        package let pin: AttemptLimit
        /// Wrong PINs per account from every address together.
        package let ceiling: AttemptLimit

        package init(address: AttemptLimit, pin: AttemptLimit, ceiling: AttemptLimit) {
            self.address = address
            self.pin = pin
            self.ceiling = ceiling
        }
    }

    /// Why a login was refused, in the seed's terms; each names the app's next step when it becomes an answer.
    package enum Refusal: Error, Equatable {
        case emptyField
        case invalidEmail
        /// No survey account has the address: sign up.
        case notRegistered
        /// The day's PIN tries are used up: forgot-PIN.
        case pinTriesExhausted
        case wrongPin(attemptsLeft: Int)
        case banned
    }

    /// The account signed in; `clientKey` is the caller's address as the limits key it.
    package func run(email: String?, pin: String?, clientKey: String) async throws -> Account {
        guard let emailText = nonEmpty(email), let pin = nonEmpty(pin) else { throw Refusal.emptyField }
        guard let email = EmailAddress(emailText) else { throw Refusal.invalidEmail }
        let addressTry = try await tries.take(.address, subject: clientKey, limit: limits.address)
        guard let stored = try await accounts.credentials(email: email), stored.account.kind == .survey, let hash = stored.pinHash
        else { throw Refusal.notRegistered }
        let account = stored.account
        let subject = AttemptSubject.ownerAndAddress(account.id, address: clientKey)
        let secrets = LimitedSecretCheck(tries: tries, hasher: hasher, ceiling: limits.ceiling)
        let left: Int?
        do {
            left = try await secrets.check(
                pin, against: hash, account: account.id, addressTry: addressTry, kind: .surveyPin, subject: subject, limit: limits.pin)
        } catch is LimitedSecretCheck.OwnTriesUsedUp {
            throw Refusal.pinTriesExhausted
        }
        if let left { throw left <= 0 ? Refusal.pinTriesExhausted : Refusal.wrongPin(attemptsLeft: left) }
        guard !account.banned else { throw Refusal.banned }
        try await tries.attempts.clear(.surveyPin, subject: subject)
        return account
    }
}
