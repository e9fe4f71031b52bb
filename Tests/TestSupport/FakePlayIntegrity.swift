import Crypto
import Foundation
import Synchronization

/// Google Play Integrity's server API as strict as Google about what it decodes: `POST /v1/{packageName}:decodeIntegrityToken`
/// with `{"integrity_token": "..."}`, JSON, and the right bearer token (401 `UNAUTHENTICATED` otherwise). A token it never
/// issued, or one issued to another app than the URL's package, is 400 `INVALID_ARGUMENT`, as a token Google cannot
/// decrypt. An issued token decodes to its verdict in Google's shape (`tokenPayloadExternal`, int64 as strings),
/// whatever the verdict says: judging it is the caller's work.
public final class FakePlayIntegrity: Sendable {
    /// What the Play Integrity API vouched for when the app asked for a token.
    public struct Verdict: Sendable {
        public var package: String
        /// The nonce the app asked with, as it passed it (base64url).
        public var nonce: String
        public var askedAt: Date
        public var appRecognition: String
        public var device: [String]

        public init(
            package: String, nonce: String, askedAt: Date = Date(), appRecognition: String = "PLAY_RECOGNIZED",
            device: [String] = ["MEETS_BASIC_INTEGRITY", "MEETS_DEVICE_INTEGRITY"]
        ) {
            (self.package, self.nonce, self.askedAt, self.appRecognition, self.device) = (package, nonce, askedAt, appRecognition, device)
        }
    }

    /// The bearer token auth must send (`PLAY_INTEGRITY_ACCESS_TOKEN`).
    public let accessToken = "ya29.fake-\(UUID().uuidString)"
    private let issued = Mutex<[String: Verdict]>([:])
    private let decoded = Mutex(0)

    public init() {}

    /// The nonce an app asks for its install's token with: the SHA-256 of its install id, base64url with padding, as
    /// Android's `Base64.URL_SAFE | Base64.NO_WRAP` writes it.
    public static func nonce(for installId: String) -> String {
        Data(SHA256.hash(data: Data(installId.utf8))).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
    }

    /// A token as the Play Integrity API hands one to an app: opaque, decodable by this fake only.
    public func issue(_ verdict: Verdict) -> String {
        let token = "eyJhbGciOiJBMjU2S1ciLCJlbmMiOiJBMjU2R0NNIn0.\(UUID().uuidString).\(UUID().uuidString)"
        issued.withLock { $0[token] = verdict }
        return token
    }

    /// Tokens decoded so far (each a call that reached a verdict).
    public var decodedCount: Int { decoded.withLock { $0 } }

    public var handler: FakeHTTPServer.Handler {
        { [self] request in
            let prefix = "/v1/", suffix = ":decodeIntegrityToken"
            guard request.method == "POST", request.path.hasPrefix(prefix), request.path.hasSuffix(suffix) else {
                return Self.error(404, "NOT_FOUND", "The requested URL was not found on this server.")
            }
            let package = String(request.path.dropFirst(prefix.count).dropLast(suffix.count))
            guard request.headers["authorization"] == "Bearer \(accessToken)" else {
                return Self.error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.")
            }
            guard request.headers["content-type"]?.hasPrefix("application/json") == true,
                let body = try? JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [String: Any], body.count == 1,
                let token = body["integrity_token"] as? String
            else { return Self.error(400, "INVALID_ARGUMENT", "Invalid JSON payload received.") }
            guard let verdict = issued.withLock({ $0[token] }), verdict.package == package else {
                return Self.error(400, "INVALID_ARGUMENT", "Integrity token cannot be decoded due to invalid arguments.")
            }
            decoded.withLock { $0 += 1 }
            return .init(body: Self.payload(verdict))
        }
    }

    static func payload(_ verdict: Verdict) -> String {
        let millis = Int64(verdict.askedAt.timeIntervalSince1970 * 1_000)
        let device = verdict.device.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            {"tokenPayloadExternal": {
              "requestDetails": {"requestPackageName": "\(verdict.package)", "nonce": "\(verdict.nonce)", "timestampMillis": "\(millis)"},
              "appIntegrity": {"appRecognitionVerdict": "\(verdict.appRecognition)", "packageName": "\(verdict.package)",
                "certificateSha256Digest": ["pnpa8e8eCArtvmaf49bJE1f5iG5-XLSU6w1U9ZvI96g"], "versionCode": "42"},
              "deviceIntegrity": {"deviceRecognitionVerdict": [\(device)]},
              "accountDetails": {"appLicensingVerdict": "LICENSED"}
            }}
            """
    }

    static func error(_ code: Int, _ status: String, _ message: String) -> FakeHTTPServer.Reply {
        .init(status: code, body: #"{"error": {"code": \#(code), "message": "\#(message)", "status": "\#(status)"}}"#)
    }
}
