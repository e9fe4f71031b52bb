import Foundation

extension Data {
    /// Base64url without padding (RFC 4648 §5), the encoding of JWK key material and of opaque tokens.
    public func base64URLEncodedString() -> String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
