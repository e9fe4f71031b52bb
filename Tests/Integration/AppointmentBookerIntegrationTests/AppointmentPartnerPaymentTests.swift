import Foundation
import HTTPTypes
import NIOCore
import PlatformHTTP
import ServiceTestSupport
import TestSupport
import Testing

@testable import AppointmentBooker

/// Partners pay through the payment provider (B6): the fee and ads have checkout references, the provider's signed
/// notification marks them paid or refunded (once each), an admin's override says it is one.
@Suite("appointment-booker: partners' payments")
struct AppointmentPartnerPaymentTests {
    static let secret = "whsec-partners-0123456789abcdef0123456789"

    @Test("B6: the fee paid through the provider lists the partner; an ad runs once paid and a refund ends it; each notification once")
    func feeAndAdsThroughTheProvider() async throws {
        try await BookingTestHarness.run(extraEnvironment: ["PAYMENT_WEBHOOK_SECRET": Self.secret]) { harness in
            let partner = try await harness.listedPartner(name: "Madame Pay", feePaid: false)
            let token = try await harness.partnerToken(partner)
            var (status, body) = try await harness.request(.get, "/v1/partner/profile", bearer: token)
            let feeReference = try #require(body["feeCheckoutReference"].string)
            #expect(feeReference == "fee:\(partner.uuidString.lowercased())")
            #expect(body["feeStatus"].string == "unpaid" && body["listed"].bool == false)

            (status, body) = try await harness.notifyPayment("pay_fee_1", reference: feeReference, status: "paid", secret: Self.secret)
            #expect(status == .ok && body["message"].string == "payment recorded", "\(body.raw ?? "")")
            (status, body) = try await harness.notifyPayment("pay_fee_1", reference: feeReference, status: "paid", secret: Self.secret)
            #expect(status == .ok && body["message"].string == "payment already recorded")
            (_, body) = try await harness.request(.get, "/v1/partner/profile", bearer: token)
            #expect(body["feeStatus"].string == "paid" && body["listed"].bool == true && body["feeMarkedBy"].string == "provider")
            (_, body) = try await harness.request(.get, "/v1/partners")
            #expect(body["partners"].array.contains { $0["name"].string == "Madame Pay" })

            // The partner buys an ad: unpaid, not running, until the provider says paid.
            let now = Date()
            let window = ["startsAt": iso(now.addingTimeInterval(-3_600)), "endsAt": iso(now.addingTimeInterval(86_400))]
            (status, body) = try await harness.request(.post, "/v1/partner/ads", json: window, bearer: token)
            #expect(status == .created && body["paymentStatus"].string == "unpaid" && body["active"].bool == false, "\(body.raw ?? "")")
            let adId = try #require(body["id"].string)
            let adReference = try #require(body["checkoutReference"].string)
            #expect(adReference == "ad:\(adId)")
            (_, body) = try await harness.request(.get, "/v1/partners")
            #expect(body["partners"][0]["promoted"].bool == false)
            (status, body) = try await harness.notifyPayment("pay_ad_1", reference: adReference, status: "paid", secret: Self.secret)
            #expect(status == .ok)
            (_, body) = try await harness.request(.get, "/v1/partner/ads", bearer: token)
            #expect(body["ads"][0]["paymentStatus"].string == "paid" && body["ads"][0]["active"].bool == true)
            #expect(body["ads"][0]["markedBy"].string == "provider")
            (_, body) = try await harness.request(.get, "/v1/partners")
            #expect(body["partners"][0]["name"].string == "Madame Pay" && body["partners"][0]["promoted"].bool == true)
            // The refund ends it.
            (status, _) = try await harness.notifyPayment("pay_ad_1", reference: adReference, status: "refunded", secret: Self.secret)
            #expect(status == .ok)
            (_, body) = try await harness.request(.get, "/v1/partner/ads", bearer: token)
            #expect(body["ads"][0]["paymentStatus"].string == "refunded" && body["ads"][0]["active"].bool == false)
            (_, body) = try await harness.request(.get, "/v1/partners")
            #expect(body["partners"][0]["promoted"].bool == false)

            // A refund that arrives before its payment keeps the payment from marking the ad paid.
            (_, body) = try await harness.request(.post, "/v1/partner/ads", json: window, bearer: token)
            let second = try #require(body["checkoutReference"].string)
            _ = try await harness.notifyPayment("pay_ad_2", reference: second, status: "refunded", secret: Self.secret)
            _ = try await harness.notifyPayment("pay_ad_2", reference: second, status: "paid", secret: Self.secret)
            (_, body) = try await harness.request(.get, "/v1/partner/ads", bearer: token)
            #expect(!body["ads"].array.contains { $0["checkoutReference"].string == second && $0["paymentStatus"].string == "paid" })

            // An admin's override is one, and says so.
            let admin = try await harness.adminToken()
            (status, body) = try await harness.request(
                .patch, "/v1/admin/partners/\(partner)/ads/\(adId)", json: ["paymentStatus": "paid"], bearer: admin)
            #expect(status == .ok && body["markedBy"].string == "admin")
            (status, body) = try await harness.request(.patch, "/v1/admin/partners/\(partner)", json: ["feeStatus": "refunded"], bearer: admin)
            #expect(status == .ok && body["feeStatus"].string == "refunded" && body["feeMarkedBy"].string == "admin" && body["listed"].bool == false)
            #expect(try await harness.count("SELECT count(*)::int FROM partner_payments") == 5)
        }
    }

    @Test("B6, X3: unsigned or wrongly signed notifications are 401, unknown purchases 404 (nothing kept), no secret 503")
    func refusedNotifications() async throws {
        try await BookingTestHarness.run(extraEnvironment: ["PAYMENT_WEBHOOK_SECRET": Self.secret]) { harness in
            let partner = try await harness.listedPartner(feePaid: false)
            let reference = "fee:\(partner.uuidString.lowercased())"
            var (status, body) = try await harness.notifyPayment("pay_1", reference: reference, status: "paid", secret: "not-the-secret")
            #expect(status == .unauthorized && body["error"]["code"].string == "bad_signature")
            (status, body) = try await harness.request(
                .post, "/v1/payments/webhook", json: ["paymentId": "pay_1", "reference": reference, "status": "paid", "amountCents": 1])
            #expect(status == .unauthorized || status == .badRequest, "no signature header: \(status)")
            for unknown in ["ad:\(UUID().uuidString.lowercased())", "fee:\(UUID().uuidString.lowercased())", "gift:card", "ad:not-a-uuid"] {
                (status, body) = try await harness.notifyPayment("pay_2", reference: unknown, status: "paid", secret: Self.secret)
                #expect(status == .notFound && body["error"]["code"].string == "unknown_purchase", "\(unknown): \(body.raw ?? "")")
            }
            #expect(try await harness.count("SELECT count(*)::int FROM partner_payments") == 0)
            (_, body) = try await harness.request(.get, "/v1/partner/profile", bearer: try await harness.partnerToken(partner))
            #expect(body["feeStatus"].string == "unpaid")
        }
        try await BookingTestHarness.run { harness in
            let (status, body) = try await harness.notifyPayment("pay_1", reference: "fee:x", status: "paid", secret: Self.secret)
            #expect(status == .serviceUnavailable && body["error"]["code"].string == "webhook_not_configured")
        }
    }

    private func iso(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle()) }
}

extension BookingTestHarness {
    /// The payment provider's notification for a partner's purchase, signed with `secret` as the provider signs.
    func notifyPayment(_ paymentId: String, reference: String, status: String, secret: String) async throws -> (HTTPResponse.Status, JSONValue) {
        let body = Data(#"{"paymentId":"\#(paymentId)","reference":"\#(reference)","status":"\#(status)","amountCents":4900}"#.utf8)
        let signature = "sha256=" + PaymentSignatureMiddleware.signature(of: body, secret: secret)
        let headers: HTTPFields = [.contentType: "application/json", HTTPField.Name("X-Signature")!: signature]
        return try await client.execute(uri: "/v1/payments/webhook", method: .post, headers: headers, body: ByteBuffer(bytes: body)) { response in
            let text = String(buffer: response.body)
            return (response.status, JSONValue(parsing: text))
        }
    }
}
