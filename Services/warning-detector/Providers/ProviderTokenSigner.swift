import Foundation
import JWTKit
import Synchronization

/// APNs token-based provider authentication (A5): an ES256 JWT with the team id as issuer and the key id in
/// its header. APNs refuses tokens older than an hour and throttles tokens renewed more often than every
/// twenty minutes, so one token is reused for `lifetime` (50 minutes) and renewed after a 403 that says it
/// expired.
final class ProviderTokenSigner: Sendable {
    private struct Claims: JWTPayload {
        var iss: IssuerClaim
        var iat: IssuedAtClaim
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    private let keys: JWTKeyCollection
    private let teamId: String
    private let keyId: String
    private let lifetime: Duration
    private let current = Mutex<(token: String, made: ContinuousClock.Instant)?>(nil)

    init(teamId: String, keyId: String, signingKeyPEM: String, lifetime: Duration = .seconds(3_000)) async throws {
        keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(pem: signingKeyPEM), kid: JWKIdentifier(string: keyId))
        self.teamId = teamId
        self.keyId = keyId
        self.lifetime = lifetime
    }

    func token() async throws -> String {
        let now = ContinuousClock.now
        if let current = current.withLock({ $0 }), now - current.made < lifetime { return current.token }
        let token = try await keys.sign(Claims(iss: IssuerClaim(value: teamId), iat: IssuedAtClaim(value: Date())), kid: JWKIdentifier(string: keyId))
        current.withLock { $0 = (token, now) }
        return token
    }

    /// The provider said the token expired or is invalid: the next send signs a new one.
    func discard() {
        current.withLock { $0 = nil }
    }
}
