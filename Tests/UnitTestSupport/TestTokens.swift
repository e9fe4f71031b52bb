import Foundation
import JWTKit
import PlatformCore
import PlatformHTTP

/// An Ed25519 key pair for minting access tokens in tests, as the auth service would.
public struct TestTokens: Sendable {
    public let privateKey: EdDSA.PrivateKey
    public let issuer: String

    public init(issuer: String = "mobile-backend-auth") throws {
        privateKey = try EdDSA.PrivateKey(curve: .ed25519)
        self.issuer = issuer
    }

    /// The public key as `AUTH_PUBLIC_KEY` expects it (base64url of the raw 32 bytes).
    public var publicKeyBase64URL: String {
        privateKey.publicKey.rawRepresentation.base64URLEncodedString()
    }

    /// The private key as `AUTH_SIGNING_KEY` expects it.
    public var privateKeyBase64URL: String {
        privateKey.rawRepresentation.base64URLEncodedString()
    }

    public func token(
        userId: String = "user-1", role: UserRole = .user, entitlements: [String] = [],
        expiresIn: TimeInterval = 900, issuer: String? = nil, trusted: Bool? = nil
    ) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(eddsa: privateKey)
        let now = Date()
        let claims = AccessTokenClaims(
            userId: userId, role: role, entitlements: entitlements, trusted: trusted, issuer: issuer ?? self.issuer, issuedAt: now,
            expiresAt: now.addingTimeInterval(expiresIn))
        return try await keys.sign(claims)
    }
}
