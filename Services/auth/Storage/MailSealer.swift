import Crypto
import Foundation

/// Queued mail bodies hold reset links and PIN codes until they are sent: sealed (ChaChaPoly) with a key derived
/// from the service's signing key, they are unreadable to anyone who can read the database but not the
/// service's secrets. A body queued before sealing (no prefix) is sent as it is.
struct MailSealer: Sendable {
    private let key: SymmetricKey
    static let prefix = "sealed-v1:"

    init(signingKey: String) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(signingKey.utf8)), info: Data("outgoing-mail-bodies".utf8), outputByteCount: 32)
    }

    func seal(_ body: String) throws -> String {
        Self.prefix + (try ChaChaPoly.seal(Data(body.utf8), using: key).combined).base64EncodedString()
    }

    /// The body to send; throws `Unreadable` for a body sealed with another key (the signing key was rotated while
    /// it waited), which can then never be sent.
    func open(_ stored: String) throws -> String {
        guard stored.hasPrefix(Self.prefix) else { return stored }
        guard let combined = Data(base64Encoded: String(stored.dropFirst(Self.prefix.count))),
            let box = try? ChaChaPoly.SealedBox(combined: combined),
            let plain = try? ChaChaPoly.open(box, using: key)
        else { throw Unreadable() }
        return String(decoding: plain, as: UTF8.self)
    }

    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "the queued body was sealed with another key (AUTH_SIGNING_KEY rotated while it waited)" }
    }
}
