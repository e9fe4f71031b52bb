import Foundation
import JWTKit
import PlatformCore

/// Verifies access tokens with the auth service's Ed25519 public key and the expected issuer.
///
/// A verified token is remembered until it expires (at most `cacheCapacity` tokens; a full cache starts over, which costs one verification per token again): an
/// Ed25519 check costs about 0.2 ms of CPU, more than the rest of a typical request, and a client sends the
/// same token for its whole 15-minute life. Expiry is still enforced on every request.
///
/// | variable | default |
/// |---|---|
/// | `AUTH_PUBLIC_KEY` | **required**: the Ed25519 public key (base64url, the JWK `x`) that verifies access tokens |
/// | `AUTH_ISSUER` | see `PlatformConfiguration` |
public struct AccessTokenVerifier: Sendable {
    private let keys: JWTKeyCollection
    private let issuer: String
    /// Tokens already verified, each until its own expiry.
    private let cache = TTLCache<String, AuthenticatedUser>(ttl: nil, capacity: cacheCapacity)
    static let cacheCapacity = 10_000
    /// Accounts deleted or merged away: their tokens are refused although their signatures still hold.
    public let erased = ErasedAccounts()

    /// - Parameter publicKey: the key's raw 32 bytes, base64url encoded (the JWK `x` value).
    public init(publicKey: String, issuer: String) async throws {
        keys = JWTKeyCollection()
        await keys.add(eddsa: try EdDSA.PublicKey(x: publicKey, curve: .ed25519))
        self.issuer = issuer
    }

    /// Reads `AUTH_PUBLIC_KEY` (required: no default for a key) and `AUTH_ISSUER`.
    public init(environment: EnvironmentReader) async throws {
        let key = try environment.requiredString("AUTH_PUBLIC_KEY")
        let issuer = environment.string("AUTH_ISSUER", default: "mobile-backend-auth")
        do {
            try await self.init(publicKey: key, issuer: issuer)
        } catch {
            throw ConfigError.malformed(variable: "AUTH_PUBLIC_KEY", value: "<redacted>", expected: "a base64url Ed25519 public key")
        }
    }

    public enum Failure: Error, Equatable {
        case invalidToken
        case wrongIssuer
        case accountErased
    }

    public func verify(_ token: String) async throws(Failure) -> AuthenticatedUser {
        let user = try await verifiedUser(token)
        guard !erased.contains(user.id) else { throw .accountErased }
        return user
    }

    private func verifiedUser(_ token: String) async throws(Failure) -> AuthenticatedUser {
        // The cache's clock is monotonic; the token's expiry is wall-clock time, checked too on every hit.
        if let user = cache.value(for: token), user.expiresAt.map({ $0 > Date() }) ?? true { return user }
        let claims: AccessTokenClaims
        do {
            claims = try await keys.verify(token, as: AccessTokenClaims.self)
        } catch {
            throw .invalidToken
        }
        guard claims.iss.value == issuer else { throw .wrongIssuer }
        let user = AuthenticatedUser(
            id: claims.sub.value, role: claims.role, entitlements: Set(claims.entitlements), expiresAt: claims.exp.value)
        // Clamped: a Duration from an unbounded Double could trap.
        let lifetime = min(max(claims.exp.value.timeIntervalSinceNow, 0), 86_400)
        cache.store(user, for: token, notAfter: .now + .seconds(lifetime))
        return user
    }
}
