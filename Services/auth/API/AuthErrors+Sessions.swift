import Foundation
import PlatformHTTP

/// The answers of session renewal and logout, OpenID Connect login and the end or merge of an account.
extension AuthErrors {
    static let sessionNotFound = APIError(.notFound, code: "session_not_found", message: "no open session for this refresh token")

    static func answer(_ refusal: RefreshSession.Refusal) -> APIError {
        switch refusal {
        case .invalidToken: invalidRefreshToken
        case .reused: refreshTokenReused
        case .banned: banned
        }
    }

    static func answer(_ refusal: ExternalLogin.Refusal) -> APIError {
        switch refusal {
        case .invalidToken: APIError(.unauthorized, code: "invalid_id_token", message: "the ID token is invalid, expired or for another app")
        case .providerUnreachable:
            APIError(.serviceUnavailable, code: "identity_provider_unreachable", message: "the identity provider cannot be reached")
        case .banned: banned
        }
    }

    static func answer(_ refusal: EndAccount.Refusal) -> APIError {
        switch refusal {
        case .noAccount: AuthAPI.noAccount
        case .unknownAccount: unknownAccount
        case .ownAccount: APIError(.conflict, code: "own_account", message: "an admin deletes their own account with DELETE /v1/me")
        case .adminAccount: APIError(.conflict, code: "admin_account", message: "an admin account is made a user before it is deleted")
        case .reauthenticationFailed:
            APIError(.unauthorized, code: "reauthentication_failed", message: "the account's password or PIN is wrong or missing")
        }
    }

    static func answer(_ refusal: MergeInstallAccount.Refusal) -> APIError {
        switch refusal {
        case .invalidToken:
            APIError(.unauthorized, code: "invalid_refresh_token", message: "the install's refresh token is unknown, ended or expired")
        case .notAnInstall:
            APIError(.conflict, code: "not_an_install", message: "the refresh token is not another install account's with the role user")
        case .noAccount: AuthAPI.noAccount
        }
    }
}
