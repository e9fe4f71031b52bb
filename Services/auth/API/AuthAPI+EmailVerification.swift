import Foundation
import PlatformHTTP

/// Confirming a survey account's email address with a mailed code (issue 27): the coupon the hotel survey
/// gives is issued only to confirmed addresses, so accounts made up by the hundred earn nothing.
extension AuthAPI {
    func startEmailVerification(
        _ input: Operations.StartEmailVerification.Input
    ) async throws -> Operations.StartEmailVerification.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let (account, email) = try await surveyAccount(body.email)
        guard try await !auth.emailVerifications.isVerified(account.id) else { throw Self.alreadyVerified }
        // Per address as recovery mails are, and per account on a budget of their own.
        let addressTry = try await auth.takeTry(
            .recoveryMailAddress, subject: RequestScope.clientKey, limit: auth.configuration.recoveryMailsPerAddress)
        _ = try await auth.givingBack([addressTry]) {
            try await auth.takeTry(.verificationMail, subject: account.id.uuidString, limit: survey.verificationMails)
        }
        try await AuthErrors.answering { try await auth.emailVerifications.start(for: account, email: email) }
        return .accepted(.message("a confirmation code was sent to your email", email: email.value))
    }

    func verifyEmail(_ input: Operations.VerifyEmail.Input) async throws -> Operations.VerifyEmail.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        guard nonEmpty(body.code) != nil else { throw AuthErrors.emptyField }
        let (account, email) = try await surveyAccount(body.email)
        let code = nonEmpty(body.code) ?? ""
        // Tries are taken before the code is compared (as for forgot-PIN): per client address, for everyone
        // together, and per account.
        let addressTry = try await auth.takeTry(.address, subject: RequestScope.clientKey, limit: auth.configuration.addressLimit)
        let budgetTry = try await auth.givingBack([addressTry]) {
            try await auth.takeTry(.codeCheck, subject: "all", limit: auth.configuration.codeChecks)
        }
        let subject = account.id.uuidString
        guard case .taken(let codeTry) = try await auth.attempts.reserve(.verifyEmail, subject: subject, limit: survey.verifyEmail) else {
            try await auth.attempts.release(addressTry)
            try await auth.attempts.release(budgetTry)
            throw AuthErrors.flow(
                .unprocessableContent, code: "verify_email_tries_exhausted", message: AuthMessages.tooManyAttempts, next: .login,
                attemptsLeft: 0)
        }
        let outcome = code.count <= 12 ? try await auth.emailVerifications.verify(code: code, account: account, email: email) : .invalidCode
        switch outcome {
        case .invalidCode:
            throw AuthErrors.flow(
                .unprocessableContent, code: "invalid_code", message: "The code is not right, or no longer valid.", next: .retry,
                attemptsLeft: codeTry.triesLeftIfFailed)
        case .alreadyVerified, .verified:
            for attempt in [addressTry, budgetTry, codeTry] { try await auth.attempts.release(attempt) }
            if outcome == .alreadyVerified { throw Self.alreadyVerified }
            return .ok(.message("your email address is confirmed", email: email.value))
        }
    }

    /// The survey account with that address, or the flow's errors (422 empty or invalid, 404 not registered).
    private func surveyAccount(_ text: String?) async throws -> (Account, EmailAddress) {
        guard let emailText = nonEmpty(text) else { throw AuthErrors.emptyField }
        guard let email = EmailAddress(emailText) else { throw AuthErrors.invalidEmail }
        guard let stored = try await auth.accounts.credentials(email: email), stored.account.kind == .survey else {
            throw AuthErrors.flow(.notFound, code: "not_registered", message: AuthMessages.unknownSurveyEmail, next: .signUp)
        }
        return (stored.account, email)
    }

    private static let alreadyVerified = APIError(.conflict, code: "already_verified", message: "this email address is confirmed already")
}
