import Foundation
import Hummingbird
import Shared

/// Hotel-survey accounts (U4): email + 4-character PIN, with the seed's try limits. Each error carries the
/// app's next step (`retry`, `sign_up`, `forgot_pin`, `login`) and the tries left in `error.details`.
struct SurveyRoutes {
    let auth: AuthContext
    let pinLimit = AttemptLimit(maxFailures: 3, window: 86_400)
    let signUpEmailLimit = AttemptLimit(maxFailures: 3, window: 900)
    let signUpPinLimit = AttemptLimit(maxFailures: 3, window: 900)
    let forgotPinLimit = AttemptLimit(maxFailures: 5, window: 1_800)

    func add(to router: Router<PlatformRequestContext>) {
        let group = router.group("v1/survey")
        group.post("login", use: login)
        group.post("signup", use: signUp)
        group.post("forgot-pin/start", use: startForgotPin)
        group.post("forgot-pin", use: forgotPin)
    }

    @Sendable func login(_ request: Request, context: PlatformRequestContext) async throws -> SessionResponse {
        let body = try await request.decode(as: SurveyLoginRequest.self, context: context)
        guard let emailText = nonEmpty(body.email), let pin = nonEmpty(body.pin) else { throw AuthErrors.emptyField }
        guard let email = EmailAddress(emailText) else { throw AuthErrors.invalidEmail }
        try await auth.checkNotLocked(.address, subject: context.remoteAddress, limit: auth.configuration.addressLimit)
        guard let stored = try await auth.accounts.credentials(email: email), stored.account.kind == .survey,
            let hash = stored.pinHash
        else {
            try await auth.attempts.recordFailure(.address, subject: context.remoteAddress)
            throw AuthErrors.flow(.notFound, code: "not_registered", message: AuthMessages.unknownSurveyEmail, next: "sign_up")
        }
        let subject = stored.account.id.uuidString
        let failures = try await auth.attempts.failures(.surveyPin, subject: subject, within: pinLimit.window)
        guard pinLimit.lockedUntil(failures: failures, now: Date()) == nil else {
            throw AuthErrors.flow(.forbidden, code: "pin_tries_exhausted", message: AuthMessages.pinTriesExhausted, next: "forgot_pin")
        }
        guard await auth.hasher.verify(pin, against: hash) else {
            try await auth.attempts.recordFailure(.surveyPin, subject: subject)
            try await auth.attempts.recordFailure(.address, subject: context.remoteAddress)
            let left = pinLimit.triesLeft(failures: failures, now: Date()) - 1
            if left <= 0 {
                throw AuthErrors.flow(.forbidden, code: "pin_tries_exhausted", message: AuthMessages.pinTriesExhausted, next: "forgot_pin")
            }
            throw AuthErrors.flow(.unauthorized, code: "wrong_pin", message: AuthMessages.wrongPin, next: "retry", attemptsLeft: left)
        }
        guard !stored.account.banned else { throw AuthErrors.banned }
        try await auth.attempts.clear(.surveyPin, subject: subject)
        return try await auth.startSession(for: stored.account, next: "welcome")
    }

    @Sendable func signUp(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let body = try await request.decode(as: SurveySignUpRequest.self, context: context)
        guard let emailText = nonEmpty(body.email) else { throw AuthErrors.emptyField }
        guard let email = EmailAddress(emailText) else {
            try await failFlow(.signUpEmail, subject: context.remoteAddress, limit: signUpEmailLimit,
                code: "invalid_email", message: AuthMessages.signUpEmailInvalid)
        }
        let pin = body.pin ?? ""
        guard CredentialPolicy.isValidPin(pin) else {
            try await failFlow(.signUpPin, subject: email.value, limit: signUpPinLimit, code: "pin_format", message: AuthMessages.pinFormat)
        }
        guard pin == body.pinConfirmation else {
            try await failFlow(.signUpPin, subject: email.value, limit: signUpPinLimit, code: "pins_differ", message: AuthMessages.pinsDiffer)
        }
        guard let account = try await auth.accounts.create(
            email: email, kind: .survey, role: .user, pinHash: await auth.hasher.hash(pin))
        else {
            throw AuthErrors.flow(.conflict, code: "already_registered", message: AuthMessages.alreadyRegistered, next: "login")
        }
        try await auth.attempts.clear(.signUpPin, subject: email.value)
        // The seed goes back to the login view after signing up, with the email prefilled.
        return try MessageResponse(message: "account created", next: "login", email: account.email)
            .response(from: request, context: context).with(status: .created)
    }

    /// Forgot-PIN, step 1 (seed 2c): an unknown email goes to sign-up; a known one gets a code by mail.
    @Sendable func startForgotPin(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let body = try await request.decode(as: ForgotPasswordRequest.self, context: context)
        guard let emailText = nonEmpty(body.email) else { throw AuthErrors.emptyField }
        guard let email = EmailAddress(emailText) else { throw AuthErrors.invalidEmail }
        try await auth.checkNotLocked(.address, subject: context.remoteAddress, limit: auth.configuration.addressLimit)
        guard let stored = try await auth.accounts.credentials(email: email), stored.account.kind == .survey else {
            try await auth.attempts.recordFailure(.address, subject: context.remoteAddress)
            throw AuthErrors.flow(.notFound, code: "not_registered", message: AuthMessages.unknownSurveyEmail, next: "sign_up")
        }
        try await auth.pinResets.start(for: stored.account, email: email)
        return try MessageResponse(message: "a reset code was sent to your email", next: "forgot_pin", email: email.value)
            .response(from: request, context: context).with(status: .accepted)
    }

    /// Forgot-PIN, step 2 (seed 3): the mailed code, then 5 tries to make PIN and confirmation match before going
    /// back to login. Wrong codes count against the same 5 tries.
    @Sendable func forgotPin(_ request: Request, context: PlatformRequestContext) async throws -> MessageResponse {
        let body = try await request.decode(as: ForgotPinRequest.self, context: context)
        guard let emailText = nonEmpty(body.email), let code = nonEmpty(body.code) else { throw AuthErrors.emptyField }
        guard let email = EmailAddress(emailText) else { throw AuthErrors.invalidEmail }
        guard let stored = try await auth.accounts.credentials(email: email), stored.account.kind == .survey else {
            throw AuthErrors.flow(.notFound, code: "not_registered", message: AuthMessages.unknownSurveyEmail, next: "sign_up")
        }
        let failures = try await auth.attempts.failures(.forgotPin, subject: email.value, within: forgotPinLimit.window)
        if forgotPinLimit.lockedUntil(failures: failures, now: Date()) != nil {
            throw AuthErrors.flow(.badRequest, code: "forgot_pin_tries_exhausted", message: AuthMessages.tooManyAttempts, next: "login", attemptsLeft: 0)
        }
        guard code.count <= 12, try await auth.pinResets.isValid(code: code, for: stored.account.id) else {
            try await failFlow(.forgotPin, subject: email.value, limit: forgotPinLimit, code: "invalid_code", message: AuthMessages.invalidPinCode)
        }
        let pin = body.pin ?? ""
        guard CredentialPolicy.isValidPin(pin) else {
            throw AuthErrors.flow(.badRequest, code: "pin_format", message: AuthMessages.pinFormat, next: "retry")
        }
        guard pin == body.pinConfirmation else {
            try await failFlow(.forgotPin, subject: email.value, limit: forgotPinLimit, code: "pins_differ", message: AuthMessages.pinsDiffer)
        }
        guard try await auth.pinResets.complete(code: code, accountId: stored.account.id, pinHash: await auth.hasher.hash(pin)) else {
            throw AuthErrors.flow(.badRequest, code: "invalid_code", message: AuthMessages.invalidPinCode, next: "retry")
        }
        try await auth.attempts.clear(.forgotPin, subject: email.value)
        try await auth.attempts.clear(.surveyPin, subject: stored.account.id.uuidString)
        return MessageResponse(message: "PIN changed", next: "login", email: email.value)
    }

    /// Records a failed try and throws: `retry` with the tries left, or `login` when they are used up.
    private func failFlow(
        _ kind: AttemptKind, subject: String, limit: AttemptLimit, code: String, message: String
    ) async throws -> Never {
        try await auth.attempts.recordFailure(kind, subject: subject)
        let failures = try await auth.attempts.failures(kind, subject: subject, within: limit.window)
        let left = limit.triesLeft(failures: failures, now: Date())
        if left == 0 {
            // Sign-up counters start over on the next visit; forgot-PIN stays locked for its window.
            if kind != .forgotPin { try await auth.attempts.clear(kind, subject: subject) }
            throw AuthErrors.flow(.badRequest, code: code, message: message, next: "login", attemptsLeft: 0)
        }
        throw AuthErrors.flow(.badRequest, code: code, message: message, next: "retry", attemptsLeft: left)
    }
}
