import Foundation
import Hummingbird
import Shared

/// Horoscope app sign-in (U5): guest access, and login with an OpenID Connect ID token from any provider.
struct HoroscopeRoutes {
    let auth: AuthContext
    let oidc: OIDCVerifier?

    struct OIDCLoginRequest: Decodable {
        var idToken: String?
    }

    func add(to router: Router<PlatformRequestContext>) {
        router.post("v1/horoscope/guest", use: guest)
        router.post("v1/horoscope/oidc", use: oidcLogin)
    }

    @Sendable func guest(_ request: Request, context: PlatformRequestContext) async throws -> SessionResponse {
        try await auth.checkNotLocked(.address, subject: context.remoteAddress, limit: auth.configuration.addressLimit)
        guard let account = try await auth.accounts.create(email: nil, kind: .horoscope, role: .guest) else {
            throw APIError(.conflict, code: "conflict", message: "could not create a guest account")
        }
        return try await auth.startSession(for: account)
    }

    @Sendable func oidcLogin(_ request: Request, context: PlatformRequestContext) async throws -> SessionResponse {
        guard let oidc else {
            throw APIError(.serviceUnavailable, code: "oidc_not_configured", message: "no identity provider is configured")
        }
        let body = try await request.decode(as: OIDCLoginRequest.self, context: context)
        guard let token = nonEmpty(body.idToken), token.count <= 8_192 else { throw AuthErrors.emptyField }
        try await auth.checkNotLocked(.address, subject: context.remoteAddress, limit: auth.configuration.addressLimit)
        let claims: OIDCVerifier.IDTokenClaims
        do {
            claims = try await oidc.verify(token)
        } catch .providerUnreachable {
            throw APIError(.serviceUnavailable, code: "identity_provider_unreachable", message: "the identity provider cannot be reached")
        } catch {
            try await auth.attempts.recordFailure(.address, subject: context.remoteAddress)
            throw APIError(.unauthorized, code: "invalid_id_token", message: "the ID token is invalid, expired or for another app")
        }
        let subject = "\(claims.iss.value)|\(claims.sub.value)"
        let account = try await auth.accounts.findOrCreateExternal(subject: subject, displayName: claims.name)
        guard !account.banned else { throw AuthErrors.banned }
        return try await auth.startSession(for: account)
    }
}
