import Foundation
import Hummingbird
import PlatformHTTP

/// The auth API's errors, in the platform's JSON error shape. Bodies that match the document but break a
/// seed's rule (an empty field, an invalid email, passwords that differ) are 422; the generated layer answers
/// 400 for bodies that do not match the document.
enum AuthErrors {
    static let emptyField = APIError(.unprocessableContent, code: "empty_field", message: AuthMessages.emptyField)
    static let invalidEmail = APIError(.unprocessableContent, code: "invalid_email", message: AuthMessages.invalidEmail)
    static let notRegistered = APIError(.unauthorized, code: "not_registered", message: AuthMessages.notRegistered)
    static let banned = APIError(.forbidden, code: "account_banned", message: AuthMessages.banned)
    static let invalidRefreshToken = APIError(.unauthorized, code: "invalid_refresh_token", message: "the refresh token is invalid or expired")
    static let refreshTokenReused = APIError(
        .unauthorized, code: "refresh_token_reused", message: "this refresh token was already used; the session has been ended")
    static let weakPassword = APIError(.unprocessableContent, code: "weak_password", message: AuthMessages.passwordPolicy)
    static let resetLinkInvalid = APIError(.gone, code: "reset_link_invalid", message: AuthMessages.resetLinkInvalid)
    static let unknownAccount = APIError.notFound("no such account")

    static let codeNotIssued = APIError(.serviceUnavailable, code: "code_not_created", message: "could not make a code; try again")
    static let accountNotCreated = APIError(.conflict, code: "conflict", message: "could not create the account")
    static let passwordChecksBusy = APIError(
        .tooManyRequests, code: "busy", message: "too many sign-ins at once; try again in a moment", headers: [.retryAfter: "1"])

    static func answer(_ refusal: DashboardLogin.Refusal) -> APIError {
        switch refusal {
        case .emptyField: emptyField
        case .invalidEmail: invalidEmail
        case .notRegistered: notRegistered
        case .wrongPassword(let attemptsLeft): wrongPassword(attemptsLeft: attemptsLeft)
        case .banned: banned
        }
    }

    static func answer(_ refusal: ChangeDashboardPassword.Refusal) -> APIError {
        switch refusal {
        case .emptyField: emptyField
        case .confirmationMismatch: rule("confirmation_mismatch", AuthMessages.confirmationMismatch)
        case .weakPassword: weakPassword
        case .notDashboardAccount: .forbidden
        case .wrongCurrentPassword: rule("wrong_current_password", AuthMessages.currentPasswordWrong)
        }
    }

    static func answer(_ refusal: ResetPassword.Refusal) -> APIError {
        switch refusal {
        case .emptyField: emptyField
        case .passwordsDiffer: rule("passwords_differ", AuthMessages.passwordsDiffer)
        case .weakPassword: weakPassword
        case .linkInvalid: resetLinkInvalid
        }
    }

    /// The dashboard says the same for an address that is malformed or has no account.
    static func dashboardAnswer(_ refusal: RequestRecoveryMail.Refusal) -> APIError {
        refusal == .emptyField ? emptyField : rule("invalid_email", AuthMessages.resetInvalidEmail)
    }

    /// A rule of the seeds broken, with its own code and message.
    static func rule(_ code: String, _ message: String) -> APIError {
        APIError(.unprocessableContent, code: code, message: message)
    }

    static func wrongPassword(attemptsLeft: Int) -> APIError {
        APIError(.unauthorized, code: "wrong_password", message: AuthMessages.wrongPassword, details: ["attemptsLeft": "\(attemptsLeft)"])
    }

    /// 429 with `Retry-After` in whole seconds.
    static func tooManyAttempts(until: Date, now: Date = Date()) -> APIError {
        .tooManyRequests(code: "too_many_attempts", message: AuthMessages.tooManyAttempts, retryAfterSeconds: until.timeIntervalSince(now))
    }

    /// A survey-flow error that tells the app where to go next (U4).
    static func flow(_ status: HTTPResponse.Status, code: String, message: String, next: FlowStep, attemptsLeft: Int? = nil) -> APIError {
        var details = ["next": next.rawValue]
        if let attemptsLeft { details["attemptsLeft"] = String(attemptsLeft) }
        return APIError(status, code: code, message: message, details: details)
    }
}
