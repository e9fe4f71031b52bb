import Crypto
import Foundation
import HTTPTypes
import ServiceTestSupport
import TestSupport
import Testing

/// U9: a signed-in user reads and edits their profile and sees their own payments.
@Suite("The signed-in account's profile and payments")
struct AuthProfileTests {
    @Test("U9: an account reads and edits its name, language, time zone and sign; bad values are 4xx; no token is 401")
    func profile() async throws {
        try await AuthTestHarness.run { auth in
            let (_, session) = try await auth.post("/v1/installs", ["app": "horoscope", "installId": "ios-profile-1"])
            let token = try #require(session["accessToken"])
            var (status, body) = try await auth.request(.get, "/v1/me", bearer: token)
            #expect(status == .ok && body["account.kind"] == "install" && body["zodiacSign"] == nil)
            let change = try JSONSerialization.data(withJSONObject: [
                "displayName": "  Noi  ", "language": "th", "timeZone": "Asia/Bangkok", "zodiacSign": "leo",
            ])
            (status, body) = try await auth.request(.patch, "/v1/me", body: change, bearer: token)
            #expect(status == .ok && body["account.displayName"] == "Noi" && body["language"] == "th")
            #expect(body["timeZone"] == "Asia/Bangkok" && body["zodiacSign"] == "leo")
            // Only the fields given change.
            (status, body) = try await auth.request(.patch, "/v1/me", body: Data(#"{"zodiacSign":"virgo"}"#.utf8), bearer: token)
            #expect(status == .ok && body["zodiacSign"] == "virgo" && body["language"] == "th" && body["account.displayName"] == "Noi")
            (status, body) = try await auth.request(.patch, "/v1/me", body: Data(#"{"timeZone":"Mars/Olympus"}"#.utf8), bearer: token)
            #expect(status == .unprocessableContent && body["error.details.timeZone"] != nil)
            (status, _) = try await auth.request(.patch, "/v1/me", body: Data(#"{"displayName":"   "}"#.utf8), bearer: token)
            #expect(status == .unprocessableContent)
            (status, _) = try await auth.request(.patch, "/v1/me", body: Data(#"{"zodiacSign":"ophiuchus"}"#.utf8), bearer: token)
            #expect(status == .badRequest)
            (status, _) = try await auth.request(.patch, "/v1/me", body: Data(#"{"email":"x@y.com"}"#.utf8), bearer: token)
            #expect(status == .badRequest, "nothing else is editable here")
            (status, _) = try await auth.request(.get, "/v1/me")
            #expect(status == .unauthorized)
        }
    }

    @Test("U9, U6: a user sees their own payments and paid features, nobody else's")
    func ownPayments() async throws {
        let secret = "whsec-test-0123456789abcdef0123456789"
        try await AuthTestHarness.run(extraEnvironment: ["PAYMENT_WEBHOOK_SECRET": secret]) { auth in
            let (_, payer) = try await auth.post("/v1/installs", ["app": "horoscope", "installId": "ios-payer"])
            let (_, other) = try await auth.post("/v1/installs", ["app": "horoscope", "installId": "ios-other"])
            let payerId = try #require(payer["account.id"])
            let (payerToken, otherToken): (String, String) = (try #require(payer["accessToken"]), try #require(other["accessToken"]))
            let payload = Data(#"{"paymentId":"pay_me_1","userId":"\#(payerId)","entitlement":"tarot","status":"paid","amountCents":299}"#.utf8)
            let signature =
                "sha256="
                + HMAC<SHA256>.authenticationCode(for: payload, using: SymmetricKey(data: Data(secret.utf8)))
                .map { String(format: "%02x", $0) }.joined()
            var (status, body) = try await auth.request(
                .post, "/v1/payments/webhook", body: payload, headers: [HTTPField.Name("X-Signature")!: signature])
            #expect(status == .ok)
            (status, body) = try await auth.request(.get, "/v1/me/payments", bearer: payerToken)
            #expect(status == .ok && body["payments.0.paymentId"] == "pay_me_1" && body["paidEntitlements.0"] == "tarot")
            (status, body) = try await auth.request(.get, "/v1/me/payments", bearer: otherToken)
            #expect(status == .ok && body["payments.0.paymentId"] == nil)
        }
    }
}
