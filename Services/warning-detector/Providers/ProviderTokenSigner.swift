import Foundation
import JWTKit
import PlatformCore
import PlatformHTTP

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
    /// The one token in use, under the one key there is.
    private let current: TTLCache<String, String>

    init(teamId: String, keyId: String, signingKeyPEM: String, lifetime: Duration = .seconds(3_000)) async throws {
        keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(pem: signingKeyPEM), kid: JWKIdentifier(string: keyId))
        self.teamId = teamId
        self.keyId = keyId
        current = TTLCache(ttl: lifetime, capacity: 1)
    }

    func token() async throws -> String {
        try await current.value(for: keyId) {
            try await keys.sign(Claims(iss: IssuerClaim(value: teamId), iat: IssuedAtClaim(value: Date())), kid: JWKIdentifier(string: keyId))
        }
    }

    /// The provider said the token expired or is invalid: the next send signs a new one.
    func discard() {
        current.invalidate(keyId)
    }
}
