import Foundation
import JWTKit

/// A fresh Ed25519 key pair in the text form configuration uses: base64url of the raw key bytes. The auth
/// service signs with the private half (`AUTH_SIGNING_KEY`); every service verifies with the public half
/// (`AUTH_PUBLIC_KEY`).
public struct Ed25519KeyPair: Sendable {
    public let publicKey: String
    public let privateKey: String

    public static func generate() throws -> Ed25519KeyPair {
        let key = try EdDSA.PrivateKey(curve: .ed25519)
        return Ed25519KeyPair(
            publicKey: base64URL(key.publicKey.rawRepresentation), privateKey: base64URL(key.rawRepresentation))
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
