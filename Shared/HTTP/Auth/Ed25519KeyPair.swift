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
            publicKey: key.publicKey.rawRepresentation.base64URLEncodedString(),
            privateKey: key.rawRepresentation.base64URLEncodedString())
    }
}
