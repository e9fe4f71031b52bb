import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Shared

/// The payment provider's webhook (U6): `POST /v1/payments/webhook` with `X-Signature: sha256=<hex HMAC-SHA256 of
/// the raw body>` keyed with `PAYMENT_WEBHOOK_SECRET`. Each payment id is applied once; a paid payment grants
/// its entitlement. Without a configured secret the route answers 503, never accepting unsigned calls.
struct PaymentWebhookRoutes {
    let admin: AdminStore
    let secret: Secret?

    struct Notification: Decodable {
        var paymentId: String
        var userId: UUID
        var entitlement: String
        var status: String
        var amountCents: Int64
    }

    func add(to router: Router<PlatformRequestContext>) {
        router.post("v1/payments/webhook", use: receive)
    }

    @Sendable func receive(_ request: Request, context: PlatformRequestContext) async throws -> MessageResponse {
        guard let secret else {
            throw APIError(.serviceUnavailable, code: "webhook_not_configured", message: "PAYMENT_WEBHOOK_SECRET is not set")
        }
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        let bytes = Data(buffer: body)
        guard let header = request.headers.first(where: { $0.name.canonicalName == "x-signature" })?.value, header.hasPrefix("sha256="),
            Self.isValid(signature: String(header.dropFirst(7)), body: bytes, secret: secret.value)
        else { throw APIError(.unauthorized, code: "bad_signature", message: "the webhook signature is missing or wrong") }
        let notification: Notification
        do {
            notification = try JSONDecoder().decode(Notification.self, from: bytes)
        } catch {
            throw APIError.badRequest("bad_payload", "the notification is not valid JSON of the expected shape")
        }
        guard let entitlement = Entitlement(rawValue: notification.entitlement) else {
            throw APIError.badRequest("unknown_entitlement", "unknown entitlement \(notification.entitlement.prefix(50))")
        }
        guard ["paid", "refunded"].contains(notification.status), notification.amountCents >= 0,
            !notification.paymentId.isEmpty, notification.paymentId.count <= 100
        else { throw APIError.badRequest("bad_payload", "status must be paid or refunded, with a payment id and amount") }
        switch try await admin.record(
            paymentId: notification.paymentId, accountId: notification.userId, entitlement: entitlement,
            status: notification.status, amountCents: notification.amountCents)
        {
        case .recorded: return MessageResponse(message: "payment recorded")
        case .duplicate: return MessageResponse(message: "payment already recorded")
        case .unknownAccount: throw APIError.notFound("no such account")
        }
    }

    /// Constant-time comparison of the hex HMAC.
    static func isValid(signature: String, body: Data, secret: String) -> Bool {
        let expected = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8)))
            .map { String(format: "%02x", $0) }.joined()
        let given = signature.lowercased()
        guard given.utf8.count == expected.utf8.count else { return false }
        return zip(given.utf8, expected.utf8).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
