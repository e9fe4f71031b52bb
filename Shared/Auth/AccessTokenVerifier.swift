import Foundation
import JWTKit

/// Verifies access tokens with the auth service's Ed25519 public key and the expected issuer.
public struct AccessTokenVerifier: Sendable {
    private let keys: JWTKeyCollection
    private let issuer: String

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
    }

    public func verify(_ token: String) async throws(Failure) -> AuthenticatedUser {
        let claims: AccessTokenClaims
        do {
            claims = try await keys.verify(token, as: AccessTokenClaims.self)
        } catch {
            throw .invalidToken
        }
        guard claims.iss.value == issuer else { throw .wrongIssuer }
        return AuthenticatedUser(id: claims.sub.value, role: claims.role, entitlements: Set(claims.entitlements))
    }
}
