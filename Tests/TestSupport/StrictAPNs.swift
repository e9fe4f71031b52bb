import Foundation
import Synchronization

/// A fake APNs as strict as the real one about topics: each token belongs to the app it was issued to, and a
/// push under another app's topic is refused with 400 `DeviceTokenNotForTopic`; a token it never issued is 400
/// `BadDeviceToken`.
public final class StrictAPNs: Sendable {
    private let topics = Mutex<[String: String]>([:])
    private let delivered = Mutex<[String: [String]]>([:])

    public init() {}

    public func issue(_ token: String, to topic: String) { topics.withLock { $0[token] = topic } }

    /// The payloads accepted for `token`, in order.
    public func sent(to token: String) -> [String] { delivered.withLock { $0[token] ?? [] } }

    public var handler: FakeHTTPServer.Handler {
        { [self] request in
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
