import Foundation
import Hummingbird

/// Request and response bodies of the auth API. Fields are optional where the seed asks for a specific
/// message on an empty field, so "missing" and "empty" get that message rather than a decoding error.
struct DashboardLoginRequest: Decodable {
    var email: String?
    var password: String?
}

struct RefreshRequest: Decodable {
    var refreshToken: String?
}

struct ChangePasswordRequest: Decodable {
    var currentPassword: String?
    var newPassword: String?
    var confirmation: String?
}

struct ForgotPasswordRequest: Decodable {
    var email: String?
}

struct ResetPasswordRequest: Decodable {
    var token: String?
    var newPassword: String?
    var confirmation: String?
}

struct SurveyLoginRequest: Decodable {
    var email: String?
    var pin: String?
}

struct SurveySignUpRequest: Decodable {
    var email: String?
    var pin: String?
    var pinConfirmation: String?
}

struct ForgotPinRequest: Decodable {
    var email: String?
    var code: String?
    var pin: String?
    var pinConfirmation: String?
}

/// A session: a short-lived access token and the refresh token that renews it.
struct SessionResponse: ResponseEncodable {
    var accessToken: String
    var refreshToken: String
    var tokenType = "Bearer"
    var expiresIn: Int
    var account: AccountView
    /// Where the survey app goes next (U4), when it matters.
    var next: String?
}

struct MessageResponse: ResponseEncodable {
    var message: String
    var next: String?
    var email: String?
}

struct JWKSResponse: ResponseEncodable {
    struct Key: Codable {
        var kty = "OKP"
        var crv = "Ed25519"
        var alg = "EdDSA"
        var use = "sig"
        var x: String
    }

    var keys: [Key]
}

func nonEmpty(_ value: String?) -> String? {
    guard let value, !value.trimmingWhitespace().isEmpty else { return nil }
    return value
}
