import Foundation
import PlatformCore

/// A hotel-survey sign-up (U4, seed 2b): email, then a 4-character PIN typed twice, 3 tries at each step before
/// the app goes back to login. The account's email address is then confirmed by a mailed code before the survey's
/// coupon is given.
package struct SignUpSurvey: Sendable {
    package let accounts: any CredentialRepository
    package let verifications: any EmailVerifications
    package let tries: TryLedger
    package let hasher: any SecretHashing
    package let limits: Limits

    package init(
        accounts: any CredentialRepository, verifications: any EmailVerifications, tries: TryLedger, hasher: any SecretHashing, limits: Limits
    ) {
        self.accounts = accounts
        self.verifications = verifications
        self.tries = tries
        self.hasher = hasher
        self.limits = limits
    }

    package struct Limits: Sendable {
        /// Invalid addresses per client address.
        package let email: AttemptLimit
        /// Bad PINs per address signed up.
        package let pin: AttemptLimit
        /// Sign-ups that reach bcrypt per client address.
        package let signUps: AttemptLimit

        package init(email: AttemptLimit, pin: AttemptLimit, signUps: AttemptLimit) {
            self.email = email
            self.pin = pin
            self.signUps = signUps
        }
    }

    /// Why a sign-up was refused; `attemptsLeft` 0 sends the app back to login (and the step's count starts over).
    package enum Refusal: Error, Equatable {
        case emptyField
        case invalidEmail(attemptsLeft: Int)
        case pinFormat(attemptsLeft: Int)
        case pinsDiffer(attemptsLeft: Int)
        case alreadyRegistered
    }

    /// The account made. A confirmation mail that cannot be queued now is asked for again later, so its failure
    /// is thrown after the account exists.
    package func run(email: String?, pin: String?, confirmation: String?, clientKey: String) async throws -> Account {
        guard let emailText = nonEmpty(email) else { throw Refusal.emptyField }
        guard let email = EmailAddress(emailText) else {
            throw Refusal.invalidEmail(attemptsLeft: try await failedStep(.signUpEmail, subject: clientKey, limit: limits.email))
        }
        let pin = pin ?? ""
        guard CredentialPolicy.isValidPin(pin) else {
            throw Refusal.pinFormat(attemptsLeft: try await failedStep(.signUpPin, subject: email.value, limit: limits.pin))
        }
        guard pin == confirmation else {
            throw Refusal.pinsDiffer(attemptsLeft: try await failedStep(.signUpPin, subject: email.value, limit: limits.pin))
        }
        let signUpTry = try await tries.take(.signUp, subject: clientKey, limit: limits.signUps)
        let pinHash = try await tries.givingBack([signUpTry]) { try await hasher.hash(pin) }
        guard let account = try await accounts.create(email: email, kind: .survey, role: .user, passwordHash: nil, pinHash: pinHash)
        else { throw Refusal.alreadyRegistered }
        try await tries.attempts.clear(.signUpPin, subject: email.value)
        try await verifications.start(for: account, email: email)
        return account
    }

    /// Records a failed try of a step and returns the tries left. The try is taken under the subject's lock, so
    /// parallel failures count one by one; at zero the count starts over (the seed sends the user back to login,
    /// and the next visit begins anew).
    private func failedStep(_ kind: AttemptKind, subject: String, limit: AttemptLimit) async throws -> Int {
        var left = 0
        if case .taken(let attempt) = try await tries.attempts.reserve(kind, subject: subject, limit: limit) {
            left = attempt.triesLeftIfFailed
        }
        if left == 0 { try await tries.attempts.clear(kind, subject: subject) }
        return left
    }
}
