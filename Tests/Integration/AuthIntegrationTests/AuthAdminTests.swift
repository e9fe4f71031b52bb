import Crypto
import Foundation
import HTTPTypes
import PlatformHTTP
import ServiceTestSupport
import TestSupport
import Testing

@testable import Auth

@Suite("auth: admin operations, entitlements and the payment webhook")
struct AuthAdminTests {
    /// Signs up and logs in a survey user; returns (account id, access token, refresh token).
    func surveyUser(_ auth: AuthTestHarness, email: String) async throws -> (String, String, String) {
        _ = try await auth.post("/v1/survey/signup", ["email": email, "pin": "ab12", "pinConfirmation": "ab12"])
        let (_, login) = try await auth.post("/v1/survey/login", ["email": email, "pin": "ab12"])
        return (try #require(login["account.id"]), try #require(login["accessToken"]), try #require(login["refreshToken"]))
    }

    func outboxCount(_ auth: AuthTestHarness, type: String) async throws -> Int {
        let rows = try await auth.db.client.query("SELECT count(*) FROM outbox WHERE event_type = \(type)", logger: auth.db.logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    @Test("U5: users cannot call admin routes; admins search, and ban, which ends the user's sessions")
    func adminSearchAndBan() async throws {
        try await AuthTestHarness.run { auth in
            let (userId, userToken, refresh) = try await surveyUser(auth, email: "banme@hotel.com")
            var (status, body) = try await auth.request(.get, "/v1/admin/users", bearer: userToken)
            #expect(status == .forbidden && body["error.code"] == "forbidden")
            let admin = try await auth.adminToken()
            (status, body) = try await auth.request(.get, "/v1/admin/users?query=banme&limit=10", bearer: admin)
            #expect(status == .ok && body["accounts.0.email"] == "banme@hotel.com" && body["accounts.0.id"] == userId, "the search finds the account")
            (status, body) = try await auth.request(.get, "/v1/admin/users?query=nobody-by-this-name", bearer: admin)
            #expect(status == .ok && body["accounts.0.id"] == nil, "and nothing else")
            (status, body) = try await auth.request(.get, "/v1/admin/users?limit=1000", bearer: admin)
            #expect(status == .badRequest && body["error.code"] == "invalid_request" && body["error.details.limit"] != nil)
            (status, body) = try await auth.request(.patch, "/v1/admin/users/not-a-uuid", body: Data("{}".utf8), bearer: admin)
            #expect(status == .badRequest && body["error.code"] == "invalid_request" && body["error.details.accountId"] != nil)
            (status, _) = try await auth.request(.patch, "/v1/admin/users/\(userId)", body: Data(#"{"banned": true}"#.utf8), bearer: admin)
            #expect(status == .ok)
            (status, body) = try await auth.post("/v1/sessions/refresh", ["refreshToken": refresh])
            #expect(status == .unauthorized)
            (status, body) = try await auth.post("/v1/survey/login", ["email": "banme@hotel.com", "pin": "ab12"])
            #expect(status == .forbidden && body["error.code"] == "account_banned")
            #expect(try await outboxCount(auth, type: "user.banned") == 1)
        }
    }

    @Test("U6: an admin grants an entitlement, which the user's next token carries")
    func grantEntitlement() async throws {
        try await AuthTestHarness.run { auth in
            let (userId, _, refresh) = try await surveyUser(auth, email: "tarot@hotel.com")
            let admin = try await auth.adminToken()
            var (status, body) = try await auth.request(
                .post, "/v1/admin/users/\(userId)/entitlements", body: Data(#"{"entitlement": "free_money"}"#.utf8), bearer: admin)
            #expect(status == .badRequest && body["error.code"] == "invalid_request")
            (status, _) = try await auth.request(
                .post, "/v1/admin/users/\(userId)/entitlements", body: Data(#"{"entitlement": "tarot"}"#.utf8), bearer: admin)
            #expect(status == .ok)
            (status, body) = try await auth.post("/v1/sessions/refresh", ["refreshToken": refresh])
            let verifier = try await AccessTokenVerifier(publicKey: auth.tokens.publicKeyBase64URL, issuer: "mobile-backend-auth")
            let user = try await verifier.verify(try #require(body["accessToken"]))
            #expect(user.has(entitlement: "tarot"))
            #expect(try await outboxCount(auth, type: "entitlement.granted") == 1)
        }
    }

    @Test("U6: an admin revokes an entitlement: the next token lacks it and entitlement.revoked is published")
    func revokeEntitlement() async throws {
        try await AuthTestHarness.run { auth in
            let (userId, _, refresh) = try await surveyUser(auth, email: "revoke@hotel.com")
            let admin = try await auth.adminToken()
            var (status, body) = try await auth.request(
                .post, "/v1/admin/users/\(userId)/entitlements", body: Data(#"{"entitlement": "contact_fortune_teller"}"#.utf8), bearer: admin)
            #expect(status == .ok)
            (status, body) = try await auth.request(.delete, "/v1/admin/users/\(userId)/entitlements/contact_fortune_teller", bearer: admin)
            #expect(status == .ok && body["message"] == "entitlement revoked")
            (status, body) = try await auth.request(.delete, "/v1/admin/users/\(userId)/entitlements/free_money", bearer: admin)
            #expect(status == .badRequest)
            (status, body) = try await auth.request(.delete, "/v1/admin/users/\(UUID())/entitlements/tarot", bearer: admin)
            #expect(status == .notFound)
            (status, body) = try await auth.post("/v1/sessions/refresh", ["refreshToken": refresh])
            let verifier = try await AccessTokenVerifier(publicKey: auth.tokens.publicKeyBase64URL, issuer: "mobile-backend-auth")
            let user = try await verifier.verify(try #require(body["accessToken"]))
            #expect(!user.has(entitlement: "contact_fortune_teller"))
            #expect(try await outboxCount(auth, type: "entitlement.revoked") == 1)
        }
    }

    @Test("U5, B1: making an account a partner publishes user.role-changed once; the same role again publishes nothing")
    func roleChangePublishes() async throws {
        try await AuthTestHarness.run { auth in
            let (userId, _, refresh) = try await surveyUser(auth, email: "teller@hotel.com")
            let admin = try await auth.adminToken()
            for _ in 0..<2 {
                let (status, _) = try await auth.request(.patch, "/v1/admin/users/\(userId)", body: Data(#"{"role": "partner"}"#.utf8), bearer: admin)
                #expect(status == .ok)
            }
            #expect(try await outboxCount(auth, type: "user.role-changed") == 1)
            let (_, body) = try await auth.post("/v1/sessions/refresh", ["refreshToken": refresh])
            let verifier = try await AccessTokenVerifier(publicKey: auth.tokens.publicKeyBase64URL, issuer: "mobile-backend-auth")
            #expect(try await verifier.verify(try #require(body["accessToken"])).role == .partner)
        }
    }

    @Test("B1, U5: an admin invites a fortune teller by email: user.registered as a partner, a choose-your-password mail, then a partner login")
    func invitePartner() async throws {
        try await AuthTestHarness.run { auth in
            let admin = try await auth.adminToken()
            var (status, body) = try await auth.request(
                .post, "/v1/admin/invitations", body: Data(#"{"email": "Teller@Example.com", "role": "partner"}"#.utf8), bearer: admin)
            #expect(status == .created)
            let accountId = try #require(body["accountId"])
            (status, body) = try await auth.request(
                .post, "/v1/admin/invitations", body: Data(#"{"email": "teller@example.com", "role": "partner"}"#.utf8), bearer: admin)
            #expect(status == .conflict && body["error.code"] == "email_taken")
            (status, body) = try await auth.request(
                .post, "/v1/admin/invitations", body: Data(#"{"email": "not-an-email", "role": "partner"}"#.utf8), bearer: admin)
            #expect(status == .unprocessableContent && body["error.code"] == "invalid_email")
            let (_, userToken, _) = try await surveyUser(auth, email: "nosy@hotel.com")
            (status, body) = try await auth.request(
                .post, "/v1/admin/invitations", body: Data(#"{"email": "x@example.com", "role": "admin"}"#.utf8), bearer: userToken)
            #expect(status == .forbidden)
            let rows = try await auth.db.client.query(
                "SELECT count(*) FROM outbox WHERE event_type = 'user.registered' AND convert_from(payload, 'UTF8')::jsonb #>> '{payload,role}' = 'partner'",
                logger: auth.db.logger)
            for try await count in rows.decode(Int.self) { #expect(count == 1) }
            #expect(try await eventually { auth.smtp.mailbox.contains("Your invitation") })
            let link = try #require(try await waitForResetLink(in: auth.smtp))
            let token = String(link.split(separator: "=").last ?? "")
            (status, body) = try await auth.post(
                "/v1/dashboard/password/reset", ["token": token, "newPassword": "Fortune123", "confirmation": "Fortune123"])
            #expect(status == .ok)
            (status, body) = try await auth.post("/v1/dashboard/login", ["email": "teller@example.com", "password": "Fortune123"])
            #expect(status == .ok)
            let verifier = try await AccessTokenVerifier(publicKey: auth.tokens.publicKeyBase64URL, issuer: "mobile-backend-auth")
            let partner = try await verifier.verify(try #require(body["accessToken"]))
            #expect(partner.role == .partner && partner.id.lowercased() == accountId.lowercased())
        }
    }

    @Test("X3: no spelling of the webhook's path applies a notification with a made-up signature, with or without a secret")
    func webhookSpellings() async throws {
        for secret in ["whsec-test-0123456789abcdef0123456789", nil] as [String?] {
            try await AuthTestHarness.run(extraEnvironment: secret.map { ["PAYMENT_WEBHOOK_SECRET": $0] } ?? [:]) { auth in
                let (userId, _, _) = try await surveyUser(auth, email: "spelling@hotel.com")
                let payload = Data(#"{"paymentId":"pay_x","userId":"\#(userId)","entitlement":"compatibility","status":"paid","amountCents":1}"#.utf8)
                let madeUp: HTTPFields = [HTTPField.Name("X-Signature")!: "sha256=" + String(repeating: "0", count: 64)]
                let spellings = [
                    "/v1/payments/webhook", "//v1/payments/webhook", "/v1//payments/webhook", "/./v1/payments/webhook",
                    "/v1/./payments/webhook", "/v1/x/../payments/webhook", "/v1%2Fpayments/webhook", "/V1/payments/webhook",
                    "/v1/payments/webhook/",
                ]
                for path in spellings {
                    let (status, body) = try await auth.request(.post, path, body: payload, headers: madeUp)
                    #expect(!(200..<300).contains(status.code), "\(path) with secret \(secret ?? "none") answered \(status): \(body)")
                    #expect(body["error.code"] != nil, "\(path) answered without a JSON error")
                }
                #expect(try await outboxCount(auth, type: "entitlement.granted") == 0, "a spelling applied the payment")
            }
        }
    }

    @Test("U6: the payment webhook needs a valid signature, applies each payment once, and grants the entitlement")
    func paymentWebhook() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["PAYMENT_WEBHOOK_SECRET": "whsec-test-0123456789abcdef0123456789"]) { auth in
            let (userId, _, refresh) = try await surveyUser(auth, email: "payer@hotel.com")
            let payload = Data(#"{"paymentId":"pay_1","userId":"\#(userId)","entitlement":"compatibility","status":"paid","amountCents":499}"#.utf8)
            func signature(_ secret: String) -> String {
                "sha256="
                    + HMAC<SHA256>.authenticationCode(for: payload, using: SymmetricKey(data: Data(secret.utf8)))
                    .map { String(format: "%02x", $0) }.joined()
            }
            var (status, body) = try await auth.request(
                .post, "/v1/payments/webhook", body: payload, headers: [HTTPField.Name("X-Signature")!: signature("wrong")])
            #expect(status == .unauthorized && body["error.code"] == "bad_signature")
            (status, body) = try await auth.request(.post, "/v1/payments/webhook", body: payload)
            #expect(status == .unauthorized)
            (status, body) = try await auth.request(
                .post, "/v1/payments/webhook", body: payload,
                headers: [HTTPField.Name("X-Signature")!: signature("whsec-test-0123456789abcdef0123456789")])
            #expect(status == .ok && body["message"] == "payment recorded")
            (status, body) = try await auth.request(
                .post, "/v1/payments/webhook", body: payload,
                headers: [HTTPField.Name("X-Signature")!: signature("whsec-test-0123456789abcdef0123456789")])
            #expect(status == .ok && body["message"] == "payment already recorded")
            let admin = try await auth.adminToken()
            (status, body) = try await auth.request(.get, "/v1/admin/users/\(userId)/payments", bearer: admin)
            #expect(status == .ok && body["payments.0.paymentId"] == "pay_1" && body["payments.0.status"] == "paid")
            #expect(body["paidEntitlements.0"] == "compatibility" && body["payments.1.paymentId"] == nil, "one payment for two deliveries")
            #expect(try await outboxCount(auth, type: "entitlement.granted") == 1, "granted once for two deliveries")
            // The user's next token carries what they paid for.
            (status, body) = try await auth.post("/v1/sessions/refresh", ["refreshToken": refresh])
            let refreshed = body["refreshToken"]
            let verifier = try await AccessTokenVerifier(publicKey: auth.tokens.publicKeyBase64URL, issuer: "mobile-backend-auth")
            #expect(try await verifier.verify(try #require(body["accessToken"])).has(entitlement: "compatibility"))

            // The refund is a notification of its own about the same payment: it revokes, once.
            let refund = Data(
                #"{"paymentId":"pay_1","userId":"\#(userId)","entitlement":"compatibility","status":"refunded","amountCents":499}"#.utf8)
            func signed(_ body: Data) -> HTTPFields {
                [
                    HTTPField.Name("X-Signature")!: "sha256="
                        + HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data("whsec-test-0123456789abcdef0123456789".utf8)))
                        .map { String(format: "%02x", $0) }.joined()
                ]
            }
            for expected in ["payment recorded", "payment already recorded"] {
                (status, body) = try await auth.request(.post, "/v1/payments/webhook", body: refund, headers: signed(refund))
                #expect(status == .ok && body["message"] == expected)
            }
            #expect(try await outboxCount(auth, type: "entitlement.revoked") == 1, "revoked once for two deliveries")
            (status, body) = try await auth.request(.get, "/v1/admin/users/\(userId)/payments", bearer: admin)
            #expect(body["paidEntitlements.0"] == nil, "nothing paid stands")
            #expect(body["payments.0.paymentId"] == "pay_1" && body["payments.1.paymentId"] == "pay_1", "both notifications listed")
            // The next access token no longer carries it.
            (status, body) = try await auth.post("/v1/sessions/refresh", ["refreshToken": try #require(refreshed)])
            #expect(status == .ok)
            #expect(try await verifier.verify(try #require(body["accessToken"])).has(entitlement: "compatibility") == false)
            // A refund that arrives before its payment keeps the payment from granting.
            let early = Data(#"{"paymentId":"pay_2","userId":"\#(userId)","entitlement":"tarot","status":"refunded","amountCents":199}"#.utf8)
            let late = Data(#"{"paymentId":"pay_2","userId":"\#(userId)","entitlement":"tarot","status":"paid","amountCents":199}"#.utf8)
            (status, _) = try await auth.request(.post, "/v1/payments/webhook", body: early, headers: signed(early))
            #expect(status == .ok)
            (status, _) = try await auth.request(.post, "/v1/payments/webhook", body: late, headers: signed(late))
            #expect(status == .ok)
            #expect(try await outboxCount(auth, type: "entitlement.granted") == 1, "the refunded payment granted nothing")
            #expect(
                try await auth.count("SELECT count(*)::int FROM accounts WHERE 'tarot' = ANY(entitlements) OR 'compatibility' = ANY(entitlements)")
                    == 0)
        }
    }
}
