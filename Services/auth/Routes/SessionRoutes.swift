import Foundation
import Hummingbird
import Shared

/// Renewing and ending sessions (U1 logout, U7 rotating refresh tokens), and the public key for verifiers.
struct SessionRoutes {
    let auth: AuthContext

    func add(to router: Router<PlatformRequestContext>, verifier: AccessTokenVerifier) {
        router.post("v1/sessions/refresh", use: refresh)
        router.group("v1/sessions/logout").add(middleware: AccessTokenMiddleware(verifier: verifier)).post(use: logout)
        router.get(".well-known/jwks.json") { _, _ in
            JWKSResponse(keys: [.init(x: auth.issuer.publicKey)])
        }
    }

    @Sendable func refresh(_ request: Request, context: PlatformRequestContext) async throws -> SessionResponse {
        let body = try await request.decode(as: RefreshRequest.self, context: context)
        guard let token = nonEmpty(body.refreshToken), token.count <= 128 else { throw AuthErrors.invalidRefreshToken }
        switch try await auth.sessions.rotate(token) {
        case .invalid:
            throw AuthErrors.invalidRefreshToken
        case .reused:
            throw AuthErrors.refreshTokenReused
        case .rotated(let accountId, let newToken):
            guard let account = try await auth.accounts.credentials(id: accountId)?.account else { throw AuthErrors.invalidRefreshToken }
            guard !account.banned else { throw AuthErrors.banned }
            return SessionResponse(
                accessToken: try await auth.issuer.accessToken(for: account), refreshToken: newToken,
                expiresIn: auth.issuer.accessTokenLifetime.rounded(.towardZero).roundedClampedInt, account: AccountView(account))
        }
    }

    /// Ends the session of the given refresh token; the app asks for confirmation before calling this (D26).
    @Sendable func logout(_ request: Request, context: PlatformRequestContext) async throws -> MessageResponse {
        let user = try context.requireUser()
        let body = try await request.decode(as: RefreshRequest.self, context: context)
        guard let token = nonEmpty(body.refreshToken), token.count <= 128, let accountId = UUID(uuidString: user.id),
            try await auth.sessions.end(token, accountId: accountId)
        else { throw APIError(.notFound, code: "session_not_found", message: "no open session for this refresh token") }
        return MessageResponse(message: "logged out", next: "login")
    }
}
