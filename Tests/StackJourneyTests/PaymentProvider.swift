import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore

/// The payment provider as auth (U6) and appointment-booker (B6) meet it: a notification POSTed to a webhook, signed
/// `sha256=<hex HMAC-SHA256 of the raw body>` with the secret both sides were configured with.
struct PaymentProvider: Sendable {
    /// The secret shared with auth's `PAYMENT_WEBHOOK_SECRET`.
    let secret: String

    func notifyPaid(_ entitlement: String, for accountId: String, auth: URL) async throws {
        let body = Data(
            #"{"paymentId":"pay_\#(UUID().uuidString.prefix(12))","userId":"\#(accountId)","entitlement":"\#(entitlement)","status":"paid","amountCents":299}"#
                .utf8)
        try await post(body, to: auth, about: entitlement)
    }

    /// The provider tells appointment-booker that a partner's fee or ad (`reference`, from its checkout) is paid (B6).
    func notifyPartnerPaid(reference: String, appointments: URL) async throws {
        let body = Data(
            #"{"paymentId":"pay_\#(UUID().uuidString.prefix(12))","reference":"\#(reference)","status":"paid","amountCents":4900}"#.utf8)
        try await post(body, to: appointments, about: reference)
    }

    /// POSTs `body` to the service's webhook, signed as the provider signs; anything but 200 throws.
    private func post(_ body: Data, to service: URL, about purchase: String) async throws {
        let signature = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8)))
            .map { String(format: "%02x", $0) }.joined()
        var request = HTTPClientRequest(url: service.appendingPathComponent("v1/payments/webhook").absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "X-Signature", value: "sha256=\(signature)")
        request.body = .bytes(ByteBuffer(bytes: body))
        let answer = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        guard answer.status == .ok else {
            throw StackError(description: "the webhook at \(service) answered \(answer.status.code) for \(purchase)")
        }
    }
}
