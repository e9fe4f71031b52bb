import Crypto
import Foundation
import Synchronization

/// A fake APNs as strict as the real one about topics: each token belongs to the app it was issued to, and a
/// push under another app's topic is refused with 400 `DeviceTokenNotForTopic`; a token it never issued is 400
/// `BadDeviceToken`. It speaks HTTP/2 only, and given the provider's key it checks each request's provider token
/// (ES256, the key id and team id the sender was configured with) as APNs does: 403 `InvalidProviderToken`.
public final class StrictAPNs: Sendable {
    /// The provider key APNs knows the sender by.
    public struct ProviderKey: Sendable {
        public let key: P256.Signing.PublicKey
        public let keyId: String
        public let teamId: String

        public init(key: P256.Signing.PublicKey, keyId: String, teamId: String) {
            self.key = key
            self.keyId = keyId
            self.teamId = teamId
        }

        /// Whether `authorization` is `bearer <JWT>` signed with this key, naming its key id and team.
        func accepts(_ authorization: String?) -> Bool {
            guard let token = authorization?.split(separator: " ").last else { return false }
            let parts = token.split(separator: ".").map(String.init)
            guard parts.count == 3, let head = Self.json(parts[0]), let claims = Self.json(parts[1]), let signed = Self.data(parts[2]),
                let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signed)
            else { return false }
            return head["alg"] as? String == "ES256" && head["kid"] as? String == keyId && claims["iss"] as? String == teamId
                && claims["iat"] != nil && key.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
        }

        private static func data(_ part: String) -> Data? {
            var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            return Data(base64Encoded: base64)
        }

        private static func json(_ part: String) -> [String: Any]? {
            data(part).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        }
    }

    private let provider: ProviderKey?
    private let topics = Mutex<[String: String]>([:])
    private let delivered = Mutex<[String: [String]]>([:])

    public init(provider: ProviderKey? = nil) { self.provider = provider }

    public func issue(_ token: String, to topic: String) { topics.withLock { $0[token] = topic } }

    /// The payloads accepted for `token`, in order.
    public func sent(to token: String) -> [String] { delivered.withLock { $0[token] ?? [] } }

    public var handler: FakeHTTPServer.Handler {
        { [self] request in
            guard request.isHTTP2 else { return .init(status: 400, body: #"{"reason":"BadRequest"}"#) }
            if let provider, !provider.accepts(request.headers["authorization"]) {
                return .init(status: 403, body: #"{"reason":"InvalidProviderToken"}"#)
            }
            let token = String(request.path.dropFirst("/3/device/".count))
            guard let topic = topics.withLock({ $0[token] }) else {
                return .init(status: 400, body: #"{"reason":"BadDeviceToken"}"#)
            }
            guard request.headers["apns-topic"] == topic else {
                return .init(status: 400, body: #"{"reason":"DeviceTokenNotForTopic"}"#)
            }
            delivered.withLock { $0[token, default: []].append(request.body) }
            return .init(headers: ["apns-id": UUID().uuidString], body: "")
        }
    }
}
