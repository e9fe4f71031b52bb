import Foundation
import PlatformHTTP

/// Renewing and ending sessions (U1 logout, U7 rotating refresh tokens), and the public key for verifiers.
extension AuthAPI {
    func refreshSession(_ input: Operations.RefreshSession.Input) async throws -> Operations.RefreshSession.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let (account, refreshToken) = try await auth.refreshSession.run(refreshToken: body.refreshToken)
        return .ok(.session(try await auth.session(for: account, refreshToken: refreshToken)))
    }

    /// Ends the session of the given refresh token; the app asks for confirmation before calling this (D26).
    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        let user = try RequestScope.requireUser()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        guard let token = nonEmpty(body.refreshToken), token.count <= 128, let accountId = UUID(uuidString: user.id) else {
            throw AuthErrors.sessionNotFound
        }
        try await EndSession(sessions: auth.sessions).run(refreshToken: token, accountId: accountId)
        return .ok(.message("logged out", next: .login))
    }

    func getSigningKeys(_ input: Operations.GetSigningKeys.Input) async throws -> Operations.GetSigningKeys.Output {
        .ok(.init(body: .json(.init(keys: [.init(kty: .okp, crv: .ed25519, alg: .edDSA, use: .sig, x: auth.issuer.publicKey)]))))
    }
}
