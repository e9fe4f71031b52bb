import Foundation
import PlatformCore
import PlatformHTTP

/// Horoscope app sign-in (U5): guest access, and login with an OpenID Connect ID token from any provider.
extension AuthAPI {
    /// The horoscope app's "continue as guest" (U5): an install account of the horoscope app, like `POST /v1/installs`
    /// without an install id (U8), so a guest owns readings, settings and bookings as any member does. Each
    /// guest is an account: their number per client address is bounded (`GUESTS_PER_ADDRESS` an hour), and they count
    /// against their network's installs (`INSTALLS_PER_NETWORK`, `INSTALLS_PER_SITE`).
    func startGuestSession(_ input: Operations.StartGuestSession.Input) async throws -> Operations.StartGuestSession.Output {
        let account = try await auth.installAccounts.guest(clientKey: RequestScope.clientKey, networks: RequestScope.clientNetworks)
        return .ok(.session(try await auth.startSession(for: account)))
    }

    func loginWithIdToken(_ input: Operations.LoginWithIdToken.Input) async throws -> Operations.LoginWithIdToken.Output {
        guard let oidc else {
            throw APIError(.serviceUnavailable, code: "oidc_not_configured", message: "no identity provider is configured")
        }
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        guard let token = nonEmpty(body.idToken) else { throw AuthErrors.emptyField }
        guard RequestText.length(token) <= 8_192 else { throw JSONBody.schemaViolation(["idToken": "is at most 8192 characters"]) }
        let nonce = body.nonce.flatMap(nonEmpty)
        if let nonce, RequestText.length(nonce) > 256 { throw JSONBody.schemaViolation(["nonce": "is at most 256 characters"]) }
        let account = try await auth.externalLogin(oidc).run(idToken: token, nonce: nonce, clientKey: RequestScope.clientKey)
        return .ok(.session(try await auth.startSession(for: account)))
    }
}
