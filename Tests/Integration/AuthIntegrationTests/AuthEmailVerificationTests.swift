import Foundation
import PostgresNIO
import ServiceTestSupport
import TestSupport
import Testing

@testable import Auth

/// N4: a survey account proves its address with a mailed code before the hotel survey's coupon is issued.
@Suite("Survey accounts confirm their email address")
struct AuthEmailVerificationTests {
    /// The `occurrence`-th confirmation code the SMTP sink received.
    static func confirmationCode(_ auth: AuthTestHarness, occurrence: Int = 1) async throws -> String? {
        let marker = "Your confirmation code is "
        _ = try await eventually { auth.smtp.mailbox.components(separatedBy: marker).count > occurrence }
        let parts = auth.smtp.mailbox.components(separatedBy: marker)
        guard parts.count > occurrence else { return nil }
        return String(parts[occurrence].prefix(6))
    }

    static func mailboxKeys(_ auth: AuthTestHarness) async throws -> [String] {
        let rows = try await auth.db.client.query(
            """
            SELECT convert_from(payload, 'UTF8')::jsonb #>> '{payload,mailboxKey}' FROM outbox
            WHERE event_type = 'user.email-verified' AND topic = 'auth.users' ORDER BY id
            """, logger: auth.db.logger)
        return try await rows.decode(String.self).collectAll()
    }

    @Test("X3, U4: sign-up mails a code; a wrong one counts a try; the right one verifies once and publishes user.email-verified")
    func verifyWithMailedCode() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["ADDRESS_MAX_FAILURES": "1000"]) { auth in
            let email = "Guest.Name+trip1@gmail.com"
            var (status, body) = try await auth.post("/v1/survey/signup", ["email": email, "pin": "ab12", "pinConfirmation": "ab12"])
            #expect(status == .created)
            let code = try #require(try await Self.confirmationCode(auth))
            let wrong = code == "000000" ? "111111" : "000000"
            (status, body) = try await auth.post("/v1/survey/verify-email", ["email": email, "code": wrong])
            #expect(status == .unprocessableContent && body["error.code"] == "invalid_code" && body["error.details.attemptsLeft"] == "4")
            (status, body) = try await auth.post("/v1/survey/verify-email", ["email": "nobody@hotel.com", "code": code])
            #expect(status == .notFound && body["error.code"] == "not_registered")
            #expect(try await Self.mailboxKeys(auth).isEmpty, "nothing published before the right code")
            (status, body) = try await auth.post("/v1/survey/verify-email", ["email": email, "code": code])
            #expect(status == .ok, "\(body)")
            (status, body) = try await auth.post("/v1/survey/verify-email", ["email": email, "code": code])
            #expect(status == .conflict && body["error.code"] == "already_verified")
            (status, body) = try await auth.post("/v1/survey/verify-email/start", ["email": email])
            #expect(status == .conflict && body["error.code"] == "already_verified")
            #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE email_verified_at IS NOT NULL") == 1)

            // One mailbox, however it is spelt: the key is what analytics gives one coupon per, and no address.
            let alias = "guestname@googlemail.com"
            _ = try await auth.post("/v1/survey/signup", ["email": alias, "pin": "ab12", "pinConfirmation": "ab12"])
            let aliasCode = try #require(try await Self.confirmationCode(auth, occurrence: 2))
            (status, _) = try await auth.post("/v1/survey/verify-email", ["email": alias, "code": aliasCode])
            #expect(status == .ok)
            let keys = try await Self.mailboxKeys(auth)
            #expect(keys.count == 2 && keys[0] == keys[1] && keys[0].count == 64 && !keys[0].contains("@"))
        }
    }

    @Test("X3: a new code retires the old; five wrong codes end the tries")
    func resendAndTries() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["ADDRESS_MAX_FAILURES": "1000"]) { auth in
            let email = "resend@hotel.com"
            _ = try await auth.post("/v1/survey/signup", ["email": email, "pin": "ab12", "pinConfirmation": "ab12"])
            let first = try #require(try await Self.confirmationCode(auth))
            var (status, body) = try await auth.post("/v1/survey/verify-email/start", ["email": email])
            #expect(status == .accepted)
            let second = try #require(try await Self.confirmationCode(auth, occurrence: 2))
            if first != second {
                (status, body) = try await auth.post("/v1/survey/verify-email", ["email": email, "code": first])
                #expect(status == .unprocessableContent && body["error.code"] == "invalid_code", "the first code was retired")
            }
            let wrong = second == "000000" ? "111111" : "000000"
            for _ in 0..<5 { _ = try await auth.post("/v1/survey/verify-email", ["email": email, "code": wrong]) }
            (status, body) = try await auth.post("/v1/survey/verify-email", ["email": email, "code": second])
            #expect(status == .unprocessableContent && body["error.code"] == "verify_email_tries_exhausted", "\(body)")
            #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE email_verified_at IS NOT NULL") == 0)
        }
    }

    /// The seam as the survey app uses it: auth and analytics running on one broker, tokens from auth's login.
    @Test("X3, N4: through auth and analytics: the coupon waits for the confirmed address, then appears")
    func couponWaitsForVerificationAcrossServices() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["ADDRESS_MAX_FAILURES": "1000"]) { auth in
            try await AnalyticsTestHarness.run(
                extraEnvironment: ["ANALYTICS_USERS_TOPIC": "auth.users"], tokens: auth.tokens
            ) { analytics in
                let email = "traveller-\(UUID().uuidString.prefix(8).lowercased())@hotel.com"
                var (status, body) = try await auth.post("/v1/survey/signup", ["email": email, "pin": "ab12", "pinConfirmation": "ab12"])
                #expect(status == .created)
                (status, body) = try await auth.post("/v1/survey/login", ["email": email, "pin": "ab12"])
                let token = try #require(body["accessToken"])
                // auth's user.registered reaches analytics through the broker.
                #expect(try await eventually(timeout: .seconds(60)) { try await analytics.request(.get, "/v1/survey", bearer: token).0 == .ok })
                let (rated, _) = try await analytics.request(
                    .post, "/v1/survey/services/dining", json: ["answers": Array(repeating: "excellent", count: 5)], bearer: token)
                #expect(rated == .created)
                let (submitted, overall) = try await analytics.request(.post, "/v1/survey/overall", json: [:] as [String: Int], bearer: token)
                #expect(submitted == .created && overall["couponStatus"].string == "awaiting_verification" && overall["couponCode"].raw == nil)

                let code = try #require(try await Self.confirmationCode(auth))
                (status, _) = try await auth.post("/v1/survey/verify-email", ["email": email, "code": code])
                #expect(status == .ok)
                #expect(
                    try await eventually(timeout: .seconds(60)) {
                        try await analytics.request(.get, "/v1/survey", bearer: token).1["overall"]["couponStatus"].string == "issued"
                    })
                let coupon = try await analytics.request(.get, "/v1/survey", bearer: token).1["overall"]["couponCode"].string
                #expect(coupon?.hasPrefix("HOTEL50-") == true)
            }
        }
    }

    /// Signs `email` up, logs in, waits for analytics to know the account and submits an overall rating; returns the
    /// access token and the coupon status the rating got.
    static func rateAsNewAccount(
        _ email: String, auth: AuthTestHarness, analytics: AnalyticsTestHarness
    ) async throws -> (token: String, couponStatus: String?) {
        var (status, body) = try await auth.post("/v1/survey/signup", ["email": email, "pin": "ab12", "pinConfirmation": "ab12"])
        #expect(status == .created, "\(body)")
        (status, body) = try await auth.post("/v1/survey/login", ["email": email, "pin": "ab12"])
        let token = try #require(body["accessToken"])
        #expect(try await eventually(timeout: .seconds(60)) { try await analytics.request(.get, "/v1/survey", bearer: token).0 == .ok })
        let (rated, _) = try await analytics.request(
            .post, "/v1/survey/services/dining", json: ["answers": Array(repeating: "excellent", count: 5)], bearer: token)
        #expect(rated == .created)
        let (submitted, overall) = try await analytics.request(.post, "/v1/survey/overall", json: [:] as [String: Int], bearer: token)
        #expect(submitted == .created)
        return (token, overall["couponStatus"].string)
    }

    @Test("U11, N4: one mailbox earns one coupon: deleting the account and signing up again with the address earns none")
    func couponOncePerMailboxAfterDeletion() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["ADDRESS_MAX_FAILURES": "1000"]) { auth in
            try await AnalyticsTestHarness.run(
                extraEnvironment: ["ANALYTICS_USERS_TOPIC": "auth.users"], tokens: auth.tokens
            ) { analytics in
                let email = "returning-\(UUID().uuidString.prefix(8).lowercased())@hotel.com"
                let first = try await Self.rateAsNewAccount(email, auth: auth, analytics: analytics)
                let code = try #require(try await Self.confirmationCode(auth))
                var (status, _) = try await auth.post("/v1/survey/verify-email", ["email": email, "code": code])
                #expect(status == .ok)
                #expect(
                    try await eventually(timeout: .seconds(60)) {
                        try await analytics.request(.get, "/v1/survey", bearer: first.token).1["overall"]["couponStatus"].string == "issued"
                    }, "the first account earns its coupon")

                (status, _) = try await auth.request(.delete, "/v1/me", body: Data(#"{"pin":"ab12"}"#.utf8), bearer: first.token)
                #expect(status == .noContent)
                #expect(
                    try await eventually(timeout: .seconds(60)) {
                        try await analytics.request(.get, "/v1/survey", bearer: first.token).0 == .unauthorized
                    }, "analytics has applied the deletion")

                let second = try await Self.rateAsNewAccount(email, auth: auth, analytics: analytics)
                #expect(second.couponStatus == "awaiting_verification")
                let codeAgain = try #require(try await Self.confirmationCode(auth, occurrence: 2))
                (status, _) = try await auth.post("/v1/survey/verify-email", ["email": email, "code": codeAgain])
                #expect(status == .ok)
                #expect(
                    try await eventually(timeout: .seconds(60)) {
                        try await analytics.request(.get, "/v1/survey", bearer: second.token).1["overall"]["couponStatus"].string
                            == "mailbox_already_rewarded"
                    }, "the mailbox had its coupon")
                #expect(try await analytics.request(.get, "/v1/survey", bearer: second.token).1["overall"]["couponCode"].raw == nil)
                let kept = try await analytics.count("SELECT count(*)::int FROM survey_coupon_mailboxes WHERE user_id LIKE 'erased:%'")
                #expect(kept == 1, "the deleted account's coupon is kept as a mailbox hash and a date, under no id")
            }
        }
    }
}
