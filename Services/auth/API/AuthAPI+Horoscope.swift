import Foundation
import PlatformHTTP

/// Horoscope app sign-in (U5): guest access, and login with an OpenID Connect ID token from any provider.
extension AuthAPI {
    /// The horoscope app's "continue as guest" (U5): an install account of the horoscope app, like `POST /v1/installs`
    /// without an install id (issue 29), so a guest owns readings, settings and bookings as any member does.
    func startGuestSession(_ input: Operations.StartGuestSession.Input) async throws -> Operations.StartGuestSession.Output {
        try await auth.checkNotLocked(.address, subject: RequestScope.clientKey, limit: auth.configuration.addressLimit)
        // Each guest is an account: their number per client address is bounded (GUESTS_PER_ADDRESS an hour), and
        // they count against the installs of everyone (INSTALLS_PER_HOUR).
        let addressTry = try await auth.takeTry(.guestSession, subject: RequestScope.clientKey, limit: auth.configuration.guestsPerAddress)
        _ = try await auth.givingBack([addressTry]) {
            try await auth.takeTry(.installAccount, subject: "all", limit: auth.configuration.installsPerHour)
        }
        let account = try await auth.accounts.createInstall(app: .horoscope, installId: "guest")
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
        let addressTry = try await auth.takeTry(.address, subject: RequestScope.clientKey, limit: auth.configuration.addressLimit)
        let claims: OIDCVerifier.IDTokenClaims
        let app: InstallApp
        do {
            (claims, app) = try await oidc.verify(token, nonce: nonce)
        } catch .providerUnreachable {
            try await auth.attempts.release(addressTry)
            throw APIError(.serviceUnavailable, code: "identity_provider_unreachable", message: "the identity provider cannot be reached")
        } catch {
            throw APIError(.unauthorized, code: "invalid_id_token", message: "the ID token is invalid, expired or for another app")
        }
        // A nonce logs in once: the same token (or another with its nonce) replayed later is refused.
        if let nonce, try await !auth.accounts.useNonce(nonce, issuer: claims.iss.value, until: claims.exp.value) {
            throw APIError(.unauthorized, code: "invalid_id_token", message: "the ID token is invalid, expired or for another app")
        }
        try await auth.attempts.release(addressTry)
        // Claims are the provider's text: Postgres cannot store NUL, so it is dropped rather than failing the login.
        let subject = RequestText.withoutNUL("\(claims.iss.value)|\(claims.sub.value)")
        let account = try await AuthErrors.answering {
            try await auth.accounts.findOrCreateExternal(subject: subject, displayName: claims.name.map(RequestText.withoutNUL), app: app)
        }
        guard !account.banned else { throw AuthErrors.banned }
        return .ok(.session(try await auth.startSession(for: account)))
    }
}
