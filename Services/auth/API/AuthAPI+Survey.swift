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
        let account = try await login.run(email: body.email, pin: body.pin, clientKey: RequestScope.clientKey)
        return .ok(.session(try await auth.startSession(for: account, next: .welcome)))
    }

    func signUpSurvey(_ input: Operations.SignUpSurvey.Input) async throws -> Operations.SignUpSurvey.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let signUp = SignUpSurvey(
            accounts: auth.accounts, verifications: auth.emailVerifications, tries: auth.tries, hasher: auth.hasher,
            limits: .init(email: survey.signUpEmail, pin: survey.signUpPin, signUps: auth.configuration.signUpsPerAddress))
        let account = try await signUp.run(email: body.email, pin: body.pin, confirmation: body.pinConfirmation, clientKey: RequestScope.clientKey)
        // The seed goes back to the login view after signing up, with the email prefilled.
        return .created(.message("account created", next: .login, email: account.email))
    }

    /// Forgot-PIN, step 1 (seed 2c): an unknown email goes to sign-up; a known one gets a code by mail.
    func startForgotPin(_ input: Operations.StartForgotPin.Input) async throws -> Operations.StartForgotPin.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let email: EmailAddress
        do {
            let start = MailPinCode(recovery: auth.recoveryMail, codes: auth.pinResets)
            email = try await start.run(email: body.email, clientKey: RequestScope.clientKey)
        } catch let refusal as RequestRecoveryMail.Refusal {
            throw AuthErrors.surveyAnswer(refusal)
        }
        return .accepted(.message("a reset code was sent to your email", next: .forgotPin, email: email.value))
    }

    /// Forgot-PIN, step 2 (seed 3): the mailed code, then the new PIN typed twice (`FinishForgotPin`).
    func finishForgotPin(_ input: Operations.FinishForgotPin.Input) async throws -> Operations.FinishForgotPin.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let finish = FinishForgotPin(
            accounts: auth.accounts, pinResets: auth.pinResets, codes: auth.codeChecks, hasher: auth.hasher, limit: survey.forgotPin)
        let email = try await finish.run(
            email: body.email, code: body.code, pin: body.pin, confirmation: body.pinConfirmation, clientKey: RequestScope.clientKey)
        return .ok(.message("PIN changed", next: .login, email: email.value))
    }
}
