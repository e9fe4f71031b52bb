import Foundation
import PlatformHTTP

/// Hotel-survey accounts (U4): email + 4-character PIN, with the seed's try limits. Each error carries the
/// app's next step (`retry`, `sign_up`, `forgot_pin`, `login`) and the tries left in `error.details`.
extension AuthAPI {
    func loginSurvey(_ input: Operations.LoginSurvey.Input) async throws -> Operations.LoginSurvey.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let login = SurveyLogin(
            accounts: auth.accounts, tries: auth.tries, hasher: auth.hasher,
            limits: .init(address: auth.configuration.addressLimit, pin: survey.pin, ceiling: auth.configuration.pinAccountCeiling))
        let account = try await AuthErrors.answering {
            try await login.run(email: body.email, pin: body.pin, clientKey: RequestScope.clientKey)
        }
        return .ok(.session(try await auth.startSession(for: account, next: .welcome)))
    }

    func signUpSurvey(_ input: Operations.SignUpSurvey.Input) async throws -> Operations.SignUpSurvey.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        guard let emailText = nonEmpty(body.email) else { throw AuthErrors.emptyField }
        guard let email = EmailAddress(emailText) else {
            try await failFlow(
                .signUpEmail, subject: RequestScope.clientKey, limit: survey.signUpEmail, code: "invalid_email",
                message: AuthMessages.signUpEmailInvalid)
        }
        let pin = body.pin ?? ""
        guard CredentialPolicy.isValidPin(pin) else {
            try await failFlow(.signUpPin, subject: email.value, limit: survey.signUpPin, code: "pin_format", message: AuthMessages.pinFormat)
        }
        guard pin == body.pinConfirmation else {
            try await failFlow(.signUpPin, subject: email.value, limit: survey.signUpPin, code: "pins_differ", message: AuthMessages.pinsDiffer)
        }
        // Every sign-up that reaches bcrypt counts against the caller's address (SIGNUPS_PER_ADDRESS an hour).
        let signUpTry = try await auth.takeTry(.signUp, subject: RequestScope.clientKey, limit: auth.configuration.signUpsPerAddress)
        let pinHash = try await auth.hash(pin, tries: [signUpTry])
        guard let account = try await auth.accounts.create(email: email, kind: .survey, role: .user, pinHash: pinHash)
        else {
            throw AuthErrors.flow(.conflict, code: "already_registered", message: AuthMessages.alreadyRegistered, next: .login)
        }
        try await auth.attempts.clear(.signUpPin, subject: email.value)
        // The coupon waits for the address to be confirmed (issue 27); a mail that cannot be queued now is asked
        // for again with `startEmailVerification`.
        try await AuthErrors.answering { try await auth.emailVerifications.start(for: account, email: email) }
        // The seed goes back to the login view after signing up, with the email prefilled.
        return .created(.message("account created", next: .login, email: account.email))
    }

    /// Forgot-PIN, step 1 (seed 2c): an unknown email goes to sign-up; a known one gets a code by mail.
    func startForgotPin(_ input: Operations.StartForgotPin.Input) async throws -> Operations.StartForgotPin.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        guard let emailText = nonEmpty(body.email) else { throw AuthErrors.emptyField }
        guard let email = EmailAddress(emailText) else { throw AuthErrors.invalidEmail }
        let addressTry = try await auth.takeTry(.address, subject: RequestScope.clientKey, limit: auth.configuration.addressLimit)
        guard let stored = try await auth.accounts.credentials(email: email), stored.account.kind == .survey else {
            throw AuthErrors.flow(.notFound, code: "not_registered", message: AuthMessages.unknownSurveyEmail, next: .signUp)
        }
        try await auth.attempts.release(addressTry)
        try await auth.takeRecoveryMail(for: stored.account.id)
        try await AuthErrors.answering { try await auth.pinResets.start(for: stored.account, email: email) }
        return .accepted(.message("a reset code was sent to your email", next: .forgotPin, email: email.value))
    }

    /// Forgot-PIN, step 2 (seed 3): the mailed code, then 5 tries to make PIN and confirmation match before going
    /// back to login. Wrong codes count against the same 5 tries.
    func finishForgotPin(_ input: Operations.FinishForgotPin.Input) async throws -> Operations.FinishForgotPin.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        guard let emailText = nonEmpty(body.email), let code = nonEmpty(body.code) else { throw AuthErrors.emptyField }
        guard let email = EmailAddress(emailText) else { throw AuthErrors.invalidEmail }
        guard let stored = try await auth.accounts.credentials(email: email), stored.account.kind == .survey else {
            throw AuthErrors.flow(.notFound, code: "not_registered", message: AuthMessages.unknownSurveyEmail, next: .signUp)
        }
        // Code tries count per account, per client address and for everyone together, and are taken before the
        // code is compared, so parallel guesses get no more comparisons than the limits.
        let addressTry = try await auth.takeTry(.address, subject: RequestScope.clientKey, limit: auth.configuration.addressLimit)
        let budgetTry = try await auth.givingBack([addressTry]) {
            try await auth.takeTry(.codeCheck, subject: "all", limit: auth.configuration.codeChecks)
        }
        let subject = stored.account.id.uuidString
        guard case .taken(let codeTry) = try await auth.attempts.reserve(.forgotPin, subject: subject, limit: survey.forgotPin) else {
            try await auth.attempts.release(addressTry)
            try await auth.attempts.release(budgetTry)
            throw AuthErrors.flow(
                .unprocessableContent, code: "forgot_pin_tries_exhausted", message: AuthMessages.tooManyAttempts, next: .login, attemptsLeft: 0)
        }
        guard code.count <= 12, try await auth.pinResets.isValid(code: code, for: stored.account.id) else {
            throw Self.flowFailure(codeTry, code: "invalid_code", message: AuthMessages.invalidPinCode)
        }
        // The code was right: no failure for the address or the budget, whatever the PIN step says next.
        try await auth.attempts.release(addressTry)
        try await auth.attempts.release(budgetTry)
        let pin = body.pin ?? ""
        guard CredentialPolicy.isValidPin(pin) else {
            try await auth.attempts.release(codeTry)
            throw AuthErrors.flow(.unprocessableContent, code: "pin_format", message: AuthMessages.pinFormat, next: .retry)
        }
        guard pin == body.pinConfirmation else {
            throw Self.flowFailure(codeTry, code: "pins_differ", message: AuthMessages.pinsDiffer)
        }
        let pinHash = try await auth.hash(pin, tries: [codeTry])
        guard try await auth.pinResets.complete(code: code, accountId: stored.account.id, pinHash: pinHash) else {
            throw AuthErrors.flow(.unprocessableContent, code: "invalid_code", message: AuthMessages.invalidPinCode, next: .retry)
        }
        try await auth.attempts.clear(.forgotPin, subject: subject)
        try await auth.attempts.clear(.surveyPin, subjectsStartingWith: AttemptSubject.owner(stored.account.id))
        return .ok(.message("PIN changed", next: .login, email: email.value))
    }

    /// The 422 for a failed forgot-PIN try already taken: `retry` with the tries left, or `login` when they are used up.
    private static func flowFailure(_ attempt: AttemptTry, code: String, message: String) -> any Error {
        let left = attempt.triesLeftIfFailed
        return AuthErrors.flow(.unprocessableContent, code: code, message: message, next: left == 0 ? .login : .retry, attemptsLeft: left)
    }

    /// Records a failed sign-up try and throws 422: `retry` with the tries left, or `login` when they are used up.
    /// The try is taken under the subject's lock (`AttemptStore.reserve`), so parallel failures count one by one;
    /// at zero the counter starts over (the seed sends the user back to login, and the next visit begins anew).
    private func failFlow(_ kind: AttemptKind, subject: String, limit: AttemptLimit, code: String, message: String) async throws -> Never {
        var left = 0
        if case .taken(let attempt) = try await auth.attempts.reserve(kind, subject: subject, limit: limit) {
            left = attempt.triesLeftIfFailed
        }
        if left == 0 {
            try await auth.attempts.clear(kind, subject: subject)
            throw AuthErrors.flow(.unprocessableContent, code: code, message: message, next: .login, attemptsLeft: 0)
        }
        throw AuthErrors.flow(.unprocessableContent, code: code, message: message, next: .retry, attemptsLeft: left)
    }
}
