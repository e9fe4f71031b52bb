import Foundation
import PostgresNIO
import ServiceTestSupport
import TestSupport
import Testing

/// The mail queue forgets (U11): a deleted account's mail goes with it, queued or sent, and everyone's sent mail goes
/// after `SENT_MAIL_RETENTION_DAYS`.
@Suite("auth: sent mail is purged")
struct AuthMailRetentionTests {
    @Test("U11: after DELETE /v1/me no row of auth's schema names the survey account's address, its sent mail included")
    func deletionTakesTheMail() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["ADDRESS_MAX_FAILURES": "1000"]) { auth in
            let email = "leaving-mail@hotel.com"
            var (status, _) = try await auth.post("/v1/survey/signup", ["email": email, "pin": "ab12", "pinConfirmation": "ab12"])
            #expect(status == .created)
            #expect(try await eventually { try await auth.count("SELECT count(*)::int FROM outgoing_mail WHERE sent_at IS NOT NULL") == 1 })
            (status, _) = try await auth.post("/v1/survey/forgot-pin/start", ["email": email])
            #expect(status == .accepted)
            let (_, login) = try await auth.post("/v1/survey/login", ["email": email, "pin": "ab12"])
            let token = try #require(login["accessToken"])
            (status, _) = try await auth.request(.delete, "/v1/me", body: Data(#"{"pin":"ab12"}"#.utf8), bearer: token)
            #expect(status == .noContent)
            let mentioning = try await auth.db.columnsMentioning(email)
            #expect(mentioning.isEmpty, "\(mentioning)")
        }
    }

    @Test("U11: the mail sender purges mail sent or given up longer ago than the retention, and keeps what is newer")
    func sentMailPurgedAfterRetention() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["ADDRESS_MAX_FAILURES": "1000", "SENT_MAIL_RETENTION_DAYS": "7"]) { auth in
            try await auth.db.client.query(
                """
                INSERT INTO outgoing_mail (recipient, subject, body, sent_at, attempts, next_attempt_at) VALUES
                    ('old-sent@hotel.com', 'Reset', '', now() - interval '8 days', 0, now() - interval '8 days'),
                    ('old-failed@hotel.com', 'Reset', '', NULL, 20, now() - interval '8 days'),
                    ('recent@hotel.com', 'Reset', '', now() - interval '6 days', 0, now() - interval '6 days')
                """, logger: auth.db.logger)
            // A mail sent makes the sender look for expired rows.
            let (status, _) = try await auth.post("/v1/survey/signup", ["email": "trigger@hotel.com", "pin": "ab12", "pinConfirmation": "ab12"])
            #expect(status == .created)
            #expect(try await eventually { auth.smtp.mailbox.contains("trigger@hotel.com") })
            #expect(
                try await eventually {
                    try await auth.count("SELECT count(*)::int FROM outgoing_mail WHERE recipient LIKE 'old-%'") == 0
                }, "sent and given-up mail older than 7 days is gone")
            #expect(try await auth.count("SELECT count(*)::int FROM outgoing_mail WHERE recipient = 'recent@hotel.com'") == 1)
        }
    }
}
