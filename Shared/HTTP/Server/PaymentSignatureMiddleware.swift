import Crypto
import Foundation
import Hummingbird
import PlatformCore

/// Checks the payment provider's signature (U6, B6) before the generated layer reads the notification: the
/// signature covers the raw body bytes, which the typed handler never sees. `X-Signature: sha256=<hex
/// HMAC-SHA256 of the body>` keyed with `PAYMENT_WEBHOOK_SECRET`; without a configured secret every call is
/// 503, never accepted unsigned. The body it read is handed on unchanged.
public struct PaymentSignatureMiddleware: RouterMiddleware {
    public typealias Context = PlatformRequestContext
    let secret: Secret?

    public init(secret: Secret?) {
        self.secret = secret
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let secret else {
            throw APIError(.serviceUnavailable, code: "webhook_not_configured", message: "PAYMENT_WEBHOOK_SECRET is not set")
        }
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        guard let header = request.headers.first(where: { $0.name.canonicalName == "x-signature" })?.value, header.hasPrefix("sha256="),
            Self.isValid(signature: String(header.dropFirst(7)), body: Data(buffer: body), secret: secret.value)
        else { throw Self.badSignature }
        var context = context
        context.signatureVerified = true
        return try await next(request, context)
    }

    public static let badSignature = APIError(.unauthorized, code: "bad_signature", message: "the webhook signature is missing or wrong")

    /// The hex HMAC-SHA256 of `body` keyed with `secret`: what the provider puts after `sha256=`.
    public static func signature(of body: Data, secret: String) -> String {
        HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8))).map { String(format: "%02x", $0) }.joined()
    }

    /// Constant-time comparison of the hex HMAC.
    public static func isValid(signature: String, body: Data, secret: String) -> Bool {
        let expected = Self.signature(of: body, secret: secret)
        let given = signature.lowercased()
        guard given.utf8.count == expected.utf8.count else { return false }
        return zip(given.utf8, expected.utf8).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
