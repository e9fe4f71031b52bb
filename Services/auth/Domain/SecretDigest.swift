import Crypto
import Foundation

/// What is stored of a secret that is only ever compared (refresh tokens, attestation keys): its SHA-256, in hex.
package enum SecretDigest {
    package static func sha256Hex(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
