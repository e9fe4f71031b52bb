import Foundation
import PlatformHTTP

/// The auth API generated from `openapi.yaml`: the dashboard's, survey app's and horoscope app's sign-in flows
/// (U1-U5), sessions (U7), admin account management and payments (U5, U6). The operations live in one
/// extension per area; the caller of a signed-in operation and the request's address come from `RequestScope`.
struct AuthAPI: APIProtocol {
    let auth: AuthContext
    let admin: AdminStore
    let ends: AccountEndStore
    let oidc: OIDCVerifier?
    let survey = SurveyLimits()
}
