import Crypto
import Foundation
import HTTPTypes
import TestSupport
import Testing

/// Steps the app journeys and the lifecycle tests share, every token from auth's routes.
extension AuthTestHarness {
    package static let webhookSecret = "whsec-journey-0123456789abcdef0123456789"

    /// The payment provider tells auth that `user` paid for `entitlement` (signed as the provider signs).
    package func pay(_ entitlement: String, for user: String) async throws {
        let body = Data(
            #"{"paymentId":"pay_\#(UUID().uuidString.prefix(8))","userId":"\#(user)","entitlement":"\#(entitlement)","status":"paid","amountCents":299}"#
                .utf8)
        let signature =
            "sha256="
            + HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(Self.webhookSecret.utf8)))
            .map { String(format: "%02x", $0) }.joined()
        let (status, answer) = try await request(.post, "/v1/payments/webhook", body: body, headers: [HTTPField.Name("X-Signature")!: signature])
        #expect(status == .ok, "\(answer)")
    }
}

extension BookingTestHarness {
    /// A fortune teller as the platform makes one: an account auth's admin gives the partner role, a profile the
    /// admin creates and approves, availability the partner sets with their own refreshed token.
    package func listedPartner(through auth: AuthTestHarness, admin: String) async throws -> (account: AppSession, partnerToken: String) {
        let teller = try await auth.install("horoscope")
        let (status, body) = try await auth.request(.patch, "/v1/admin/users/\(teller.id)", body: Data(#"{"role": "partner"}"#.utf8), bearer: admin)
        #expect(status == .ok, "\(body)")
        #expect(
            try await eventually {
                try await count("SELECT count(*)::int FROM accounts WHERE user_id = '\(teller.id)' AND role = 'partner'") == 1
            })
        let partnerToken = try await auth.refreshed(teller).access
        var (answer, json) = try await request(
            .post, "/v1/admin/partners",
            json: [
                "accountId": teller.id, "name": "Madame Journey", "description": "Tarot", "contact": "+66 2 000 0000", "languages": ["th"],
                "timeZone": "Asia/Bangkok",
            ], bearer: admin)
        #expect(answer == .created, "\(json.raw ?? "")")
        (answer, json) = try await request(.patch, "/v1/admin/partners/\(teller.id)", json: ["approved": true, "feeStatus": "paid"], bearer: admin)
        #expect(answer == .ok, "\(json.raw ?? "")")
        (answer, json) = try await request(
            .put, "/v1/partners/\(teller.id)/availability", json: ["weekly": BookingTestHarness.everyDay(), "exceptions": []], bearer: partnerToken)
        #expect(answer == .ok, "\(json.raw ?? "")")
        return (teller, partnerToken)
    }
}
