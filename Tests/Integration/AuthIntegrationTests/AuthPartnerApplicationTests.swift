import Foundation
import PlatformCore
import PlatformEvents
import ServiceTestSupport
import TestSupport
import Testing

/// auth's part in fortune tellers' applications (B6): appointment-booker's `partner.applied` mails every admin,
/// `partner.approved` makes a user account a partner and publishes `user.role-changed`; an admin stays an admin.
@Suite("auth: partner applications")
struct AuthPartnerApplicationTests {
    @Test("B6: an application is mailed to the admins; an approval makes the user a partner, once; an admin stays an admin")
    func applicationsAndApprovals() async throws {
        try await AuthTestHarness.run { auth in
            let (status, body) = try await auth.post("/v1/installs", ["app": "horoscope", "installId": "ios-teller-1"])
            #expect(status == .created)
            let applicant = try #require(body["account.id"].flatMap(UUID.init(uuidString:)))
            try await publishEnvelope(
                EventEnvelope(
                    type: EventTypes.partnerApplied, producer: "appointment-booker", key: applicant.uuidString,
                    payload: PartnerApplied(userId: applicant, name: "Madame Mail", termsVersion: "2026-11")),
                to: auth.partnerApplicationsTopic)
            #expect(try await eventually { auth.smtp.mailbox.contains("A fortune teller applied: Madame Mail") })
            #expect(auth.smtp.mailbox.contains("admin@example.com") && auth.smtp.mailbox.contains("/v1/admin/partner-applications"))

            let approved = EventEnvelope(
                type: EventTypes.partnerApproved, producer: "appointment-booker", key: applicant.uuidString,
                payload: PartnerApproved(userId: applicant))
            try await publishEnvelope(approved, to: auth.partnerApplicationsTopic)
            #expect(
                try await eventually {
                    try await auth.count("SELECT count(*)::int FROM accounts WHERE id = '\(applicant)' AND role = 'partner'") == 1
                })
            // The same event again changes nothing (applied once); an admin's approval leaves the admin an admin.
            try await publishEnvelope(approved, to: auth.partnerApplicationsTopic)
            let admin = try #require(try await auth.adminAccountId())
            try await publishEnvelope(
                EventEnvelope(
                    type: EventTypes.partnerApproved, producer: "appointment-booker", key: admin.uuidString, payload: PartnerApproved(userId: admin)),
                to: auth.partnerApplicationsTopic)
            #expect(try await eventually { try await auth.count("SELECT count(*)::int FROM processed_events") >= 3 })
            #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE id = '\(admin)' AND role = 'admin'") == 1)
            let roleEvents = "SELECT count(*)::int FROM outbox WHERE event_type = 'user.role-changed' AND key = '\(AccountKey.of(applicant))'"
            #expect(try await auth.count(roleEvents) == 1, "one role change for the approval, none for its repeat")
        }
    }
}

extension AuthTestHarness {
    func adminAccountId() async throws -> UUID? {
        let rows = try await db.client.query("SELECT id FROM accounts WHERE email = 'admin@example.com'", logger: db.logger)
        for try await id in rows.decode(UUID.self) { return id }
        return nil
    }
}
