import Crypto
import Foundation
import HTTPTypes
import PlatformHTTP
import ServiceTestSupport
import TestSupport
import Testing

/// Payments follow the payment, not the id a notification names (U6): an install's purchase moves with a merge, and
/// the provider's later refund, which still names the install, takes the feature back from the account it merged into.
@Suite("auth: payments after an install merge")
struct AuthMergedPaymentTests {
    static let secret = "whsec-test-0123456789abcdef0123456789"

    /// Posts a notification signed with the webhook secret.
    static func notify(_ auth: AuthTestHarness, _ json: String) async throws -> (HTTPResponse.Status, JSONObject) {
        let body = Data(json.utf8)
        let signature =
            "sha256="
            + HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8))).map { String(format: "%02x", $0) }.joined()
        return try await auth.request(.post, "/v1/payments/webhook", body: body, headers: [HTTPField.Name("X-Signature")!: signature])
    }

    @Test("U6: buy on an install, merge it into an account, refund naming the install: the feature is revoked and the refund recorded")
    func refundAfterMergeRevokes() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["PAYMENT_WEBHOOK_SECRET": Self.secret, "ADDRESS_MAX_FAILURES": "1000"]) { auth in
            var (status, body) = try await auth.post("/v1/installs", ["app": "horoscope", "installId": "ios-buyer-1"])
            let installId = try #require(body["account.id"]), installRefresh = try #require(body["refreshToken"])
            (status, body) = try await Self.notify(
                auth, #"{"paymentId":"pay_m1","userId":"\#(installId)","entitlement":"tarot","status":"paid","amountCents":299}"#)
            #expect(status == .ok && body["message"] == "payment recorded")

            _ = try await auth.post("/v1/survey/signup", ["email": "buyer@hotel.com", "pin": "ab12", "pinConfirmation": "ab12"])
            (status, body) = try await auth.post("/v1/survey/login", ["email": "buyer@hotel.com", "pin": "ab12"])
            let member = try #require(body["account.id"]), token = try #require(body["accessToken"]), refresh = try #require(body["refreshToken"])
            (status, body) = try await auth.post("/v1/me/merge-install", ["installRefreshToken": installRefresh], bearer: token)
            #expect(status == .ok && body["account.entitlements.0"] == "tarot", "the purchase came along: \(body)")

            // The provider knows only the install's id.
            (status, body) = try await Self.notify(
                auth, #"{"paymentId":"pay_m1","userId":"\#(installId)","entitlement":"tarot","status":"refunded","amountCents":299}"#)
            #expect(status == .ok && body["message"] == "payment recorded", "\(body)")
            (status, body) = try await auth.request(.get, "/v1/me/payments", bearer: token)
            #expect(status == .ok && body["paidEntitlements.0"] == nil, "nothing paid stands: \(body)")
            let statuses = [body["payments.0.status"], body["payments.1.status"]].compactMap { $0 }.sorted()
            #expect(statuses == ["paid", "refunded"] && body["payments.0.paymentId"] == "pay_m1", "the refund is recorded on the account")
            #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE 'tarot' = ANY(entitlements)") == 0)
            let revoked = try await auth.count(
                "SELECT count(*)::int FROM outbox WHERE event_type = 'entitlement.revoked' AND lower(key) = '\(member.lowercased())'")
            #expect(revoked == 1, "the account's services hear of it")
            (status, body) = try await auth.post("/v1/sessions/refresh", ["refreshToken": refresh])
            let verifier = try await AccessTokenVerifier(publicKey: auth.tokens.publicKeyBase64URL, issuer: "mobile-backend-auth")
            #expect(try await verifier.verify(try #require(body["accessToken"])).has(entitlement: "tarot") == false)

            // A notification naming an install that never paid and is gone stays unknown.
            (status, body) = try await Self.notify(
                auth, #"{"paymentId":"pay_m2","userId":"\#(UUID().uuidString)","entitlement":"tarot","status":"paid","amountCents":299}"#)
            #expect(status == .notFound)
        }
    }
}
