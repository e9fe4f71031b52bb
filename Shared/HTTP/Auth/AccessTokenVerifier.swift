import Foundation
import JWTKit
import PlatformCore

/// Verifies access tokens with the auth service's Ed25519 public key and the expected issuer.
///
/// A verified token is remembered until it expires (at most `cacheCapacity` tokens; a full cache starts over, which costs one verification per token again): an
/// Ed25519 check costs about 0.2 ms of CPU, more than the rest of a typical request, and a client sends the
/// same token for its whole 15-minute life. Expiry is still enforced on every request. A token signed to live
/// longer than auth issues them (`AccessTokenLifetime.maximum`) is refused: it would outlive the memory of its
/// account's erasure (`ErasedAccounts.retention`).
///
/// | variable | default |
/// |---|---|
/// | `AUTH_PUBLIC_KEY` | **required**: the Ed25519 public key (base64url, the JWK `x`) that verifies access tokens |
/// | `AUTH_ISSUER` | see `PlatformConfiguration` |
/// | `ERASED_ACCOUNTS_KEY` | **required**, 32+ characters: the HMAC-SHA256 key of the erased account ids the service keeps (`erased_accounts`); a service may have its own. Set once: rows written under another key no longer match |
public struct AccessTokenVerifier: Sendable {
    private let keys: JWTKeyCollection
    private let issuer: String
    /// Tokens already verified, each until its own expiry.
    private let cache = TTLCache<String, AuthenticatedUser>(ttl: nil, capacity: cacheCapacity)
    static let cacheCapacity = 10_000
    /// Accounts deleted or merged away: their tokens are refused although their signatures still hold.
    public let erased: ErasedAccounts

    /// - Parameter publicKey: the key's raw 32 bytes, base64url encoded (the JWK `x` value).
    /// - Parameter erased: the service's erased accounts; by default a set of its own under a random key.
    public init(publicKey: String, issuer: String, erased: ErasedAccounts = ErasedAccounts(key: .random())) async throws {
        await self.init(publicKey: try EdDSA.PublicKey(x: publicKey, curve: .ed25519), issuer: issuer, erased: erased)
    }

    private init(publicKey: EdDSA.PublicKey, issuer: String, erased: ErasedAccounts) async {
        keys = JWTKeyCollection()
        await keys.add(eddsa: publicKey)
        self.issuer = issuer
        self.erased = erased
    }

    /// Reads `AUTH_PUBLIC_KEY` (required: no default for a key), `AUTH_ISSUER` and `ERASED_ACCOUNTS_KEY` (required).
    public init(environment: EnvironmentReader) async throws {
        let key = try environment.requiredString("AUTH_PUBLIC_KEY")
        let issuer = environment.string("AUTH_ISSUER", default: "mobile-backend-auth")
        let publicKey: EdDSA.PublicKey
        do {
            publicKey = try EdDSA.PublicKey(x: key, curve: .ed25519)
        } catch {
            throw ConfigError.malformed(variable: "AUTH_PUBLIC_KEY", value: "<redacted>", expected: "a base64url Ed25519 public key")
        }
        let erasedKey = ErasedAccountKey(secret: try environment.requiredSecret("ERASED_ACCOUNTS_KEY"))
        await self.init(publicKey: publicKey, issuer: issuer, erased: ErasedAccounts(key: erasedKey))
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
        guard AccessTokenLifetime.isWithinMaximum(issuedAt: claims.iat.value, expiresAt: claims.exp.value) else { throw .invalidToken }
        let user = AuthenticatedUser(
            id: claims.sub.value, role: claims.role, entitlements: Set(claims.entitlements), expiresAt: claims.exp.value,
            trusted: claims.trusted ?? true)
        // Clamped: a Duration from an unbounded Double could trap.
        let lifetime = min(max(claims.exp.value.timeIntervalSinceNow, 0), 86_400)
        cache.store(user, for: token, notAfter: .now + .seconds(lifetime))
        return user
    }
}
