import AuthCore
import Crypto
import Foundation
import JWTKit
import PlatformCore
import PlatformHTTP

/// Signs access tokens with the service's Ed25519 private key and mints opaque refresh tokens, which are
/// stored only as SHA-256 hashes.
struct TokenIssuer: Sendable {
    private let keys: JWTKeyCollection
    let issuer: String
    let accessTokenLifetime: TimeInterval
    /// Decides each token's `trusted` claim.
    let trust: InstallTrust
    /// The public half as a JWK `x`, served at `/.well-known/jwks.json`.
    let publicKey: String

    init(signingKey: String, issuer: String, accessTokenLifetime: TimeInterval, trust: InstallTrust) async throws(ConfigError) {
        let key: EdDSA.PrivateKey
        do {
            key = try EdDSA.PrivateKey(d: signingKey, curve: .ed25519)
        } catch {
            throw .malformed(variable: "AUTH_SIGNING_KEY", value: "<redacted>", expected: "a base64url Ed25519 private key")
        }
        keys = JWTKeyCollection()
        await keys.add(eddsa: key)
        self.issuer = issuer
        self.accessTokenLifetime = accessTokenLifetime
        self.trust = trust
        publicKey = key.publicKey.rawRepresentation.base64URLEncodedString()
    }

    func accessToken(for account: Account, now: Date = Date()) async throws -> String {
        // The subject in lower case, as every service stores and compares account ids (`AccountKey`): what a
        // service keyed by it is found again by the account events, which name the id the same way.
        let claims = AccessTokenClaims(
            userId: AccountKey.of(account.id), role: account.role, entitlements: account.entitlements.sorted(),
            trusted: trust.trusts(account, now: now), issuer: issuer, issuedAt: now, expiresAt: now.addingTimeInterval(accessTokenLifetime))
        return try await keys.sign(claims)
    }

    /// A new refresh token: 32 random bytes, base64url. Only its hash is stored.
    static func newRefreshToken() -> String {
        Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URLEncodedString()
    }

    static func hash(_ secret: String) -> String { SecretDigest.sha256Hex(secret) }
}
