import Foundation
import PlatformHTTP

/// The survey app's answers (U4): each carries the app's next step (`retry`, `sign_up`, `forgot_pin`, `login`)
/// and, where tries are counted, the tries left; at none left the app goes back to login.
extension AuthErrors {
    static func answer(_ refusal: SurveyLogin.Refusal) -> APIError {
        switch refusal {
        case .emptyField: emptyField
        case .invalidEmail: invalidEmail
        case .notRegistered: notRegisteredForSurvey
        case .pinTriesExhausted: flow(.forbidden, code: "pin_tries_exhausted", message: AuthMessages.pinTriesExhausted, next: .forgotPin)
        case .wrongPin(let left): flow(.unauthorized, code: "wrong_pin", message: AuthMessages.wrongPin, next: .retry, attemptsLeft: left)
        case .banned: banned
        }
    }

    static func answer(_ refusal: SignUpSurvey.Refusal) -> APIError {
        switch refusal {
        case .emptyField: emptyField
        case .invalidEmail(let left): stepFailed(code: "invalid_email", message: AuthMessages.signUpEmailInvalid, attemptsLeft: left)
        case .pinFormat(let left): stepFailed(code: "pin_format", message: AuthMessages.pinFormat, attemptsLeft: left)
        case .pinsDiffer(let left): stepFailed(code: "pins_differ", message: AuthMessages.pinsDiffer, attemptsLeft: left)
        case .alreadyRegistered: flow(.conflict, code: "already_registered", message: AuthMessages.alreadyRegistered, next: .login)
        }
    }

    static func answer(_ refusal: FinishForgotPin.Refusal) -> APIError {
        switch refusal {
        case .emptyField: emptyField
        case .invalidEmail: invalidEmail
        case .notRegistered: notRegisteredForSurvey
        case .triesExhausted:
            flow(.unprocessableContent, code: "forgot_pin_tries_exhausted", message: AuthMessages.tooManyAttempts, next: .login, attemptsLeft: 0)
        case .invalidCode(let left): stepFailed(code: "invalid_code", message: AuthMessages.invalidPinCode, attemptsLeft: left)
        case .pinFormat: flow(.unprocessableContent, code: "pin_format", message: AuthMessages.pinFormat, next: .retry)
        case .pinsDiffer(let left): stepFailed(code: "pins_differ", message: AuthMessages.pinsDiffer, attemptsLeft: left)
        case .codeNoLongerValid: flow(.unprocessableContent, code: "invalid_code", message: AuthMessages.invalidPinCode, next: .retry)
        }
    }

    static func answer(_ refusal: EmailConfirmation.Refusal) -> APIError {
        switch refusal {
        case .emptyField: emptyField
        case .invalidEmail: invalidEmail
        case .notRegistered: notRegisteredForSurvey
        case .alreadyVerified: APIError(.conflict, code: "already_verified", message: "this email address is confirmed already")
        case .triesExhausted:
            flow(.unprocessableContent, code: "verify_email_tries_exhausted", message: AuthMessages.tooManyAttempts, next: .login, attemptsLeft: 0)
        case .invalidCode(let left):
            flow(.unprocessableContent, code: "invalid_code", message: "The code is not right, or no longer valid.", next: .retry, attemptsLeft: left)
        }
    }

    /// Forgot-PIN's first step: an unknown address goes to sign-up.
    static func surveyAnswer(_ refusal: RequestRecoveryMail.Refusal) -> APIError {
        switch refusal {
        case .emptyField: emptyField
        case .invalidEmail: invalidEmail
        case .notRegistered: notRegisteredForSurvey
        }
    }

    static let notRegisteredForSurvey = flow(.notFound, code: "not_registered", message: AuthMessages.unknownSurveyEmail, next: .signUp)

    /// A failed try of a counted step: `retry` with the tries left, or `login` when they are used up.
    static func stepFailed(code: String, message: String, attemptsLeft left: Int) -> APIError {
        flow(.unprocessableContent, code: code, message: message, next: left == 0 ? .login : .retry, attemptsLeft: left)
    }
}
