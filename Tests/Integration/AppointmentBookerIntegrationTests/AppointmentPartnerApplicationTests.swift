import Foundation
import PlatformEvents
import ServiceTestSupport
import TestSupport
import Testing

@testable import AppointmentBooker

/// Fortune tellers apply themselves (B6): a profile and the accepted terms' version; admins list the pending ones
/// and decide; an approval makes the profile and tells auth (`partner.approved`), an application tells it too
/// (`partner.applied`, which auth mails to its admins).
@Suite("appointment-booker: partner applications")
struct AppointmentPartnerApplicationTests {
    static let secret = "whsec-applications-0123456789abcdef0123"

    static func application(terms: String, name: String = "Madame Apply") -> [String: Any] {
        [
            "name": name, "description": "Tarot in Thai and English", "contact": "LINE: madame", "languages": ["th", "en"],
            "timeZone": "Asia/Bangkok", "termsVersion": terms,
        ]
    }

    @Test("B6: apply with the current terms, wait, get approved by an admin, pay the fee: listed; each step published for auth")
    func applyApprovePay() async throws {
        try await BookingTestHarness.run(extraEnvironment: ["PARTNER_TERMS_VERSION": "2026-11", "PAYMENT_WEBHOOK_SECRET": Self.secret]) { harness in
            var (status, body) = try await harness.request(.get, "/v1/partner-terms")
            #expect(status == .ok && body["version"].string == "2026-11")
            let applicant = UUID()
            let token = try await harness.bookerToken(applicant.uuidString, entitlements: [])
            (status, body) = try await harness.request(.post, "/v1/me/partner-application", json: Self.application(terms: "2025-01"), bearer: token)
            #expect(status == .unprocessableContent && body["error"]["code"].string == "terms_not_current")
            #expect(body["error"]["details"]["termsVersion"].string == "2026-11")
            (status, body) = try await harness.request(.post, "/v1/me/partner-application", json: Self.application(terms: "2026-11"), bearer: token)
            #expect(status == .created && body["status"].string == "pending" && body["termsVersion"].string == "2026-11", "\(body.raw ?? "")")
            #expect(body["termsAcceptedAt"].string != nil)
            (status, body) = try await harness.request(.post, "/v1/me/partner-application", json: Self.application(terms: "2026-11"), bearer: token)
            #expect(status == .conflict && body["error"]["code"].string == "application_exists")
            (status, body) = try await harness.request(.get, "/v1/me/partner-application", bearer: token)
            #expect(status == .ok && body["status"].string == "pending")
            // A guest cannot apply; a user is not an admin.
            let guest = try await harness.tokens.token(userId: UUID().uuidString, role: .guest)
            (status, _) = try await harness.request(.post, "/v1/me/partner-application", json: Self.application(terms: "2026-11"), bearer: guest)
            #expect(status == .forbidden)
            (status, _) = try await harness.request(.get, "/v1/admin/partner-applications", bearer: token)
            #expect(status == .forbidden)

            let admin = try await harness.adminToken()
            (status, body) = try await harness.request(.get, "/v1/admin/partner-applications?status=pending", bearer: admin)
            #expect(status == .ok && body["applications"].array.map { $0["accountId"].string } == [applicant.uuidString.lowercased()])
            (status, body) = try await harness.request(
                .post, "/v1/admin/partner-applications/\(applicant)/decision", json: ["approve": true], bearer: admin)
            #expect(status == .ok && body["status"].string == "approved" && body["decidedAt"].string != nil)
            (status, body) = try await harness.request(
                .post, "/v1/admin/partner-applications/\(applicant)/decision", json: ["approve": false], bearer: admin)
            #expect(status == .conflict && body["error"]["code"].string == "already_decided")
            (status, body) = try await harness.request(
                .post, "/v1/admin/partner-applications/\(UUID())/decision", json: ["approve": true], bearer: admin)
            #expect(status == .notFound && body["error"]["code"].string == "application_not_found")
            #expect(try await harness.request(.get, "/v1/admin/partner-applications?status=pending", bearer: admin).1["applications"].count == 0)

            // Both steps were published for auth, in order, keyed by the account.
            let consumer = try makeConsumer(topics: [harness.partnerApplicationsTopic], group: "check-\(uniqueSuffix())", startPosition: .beginning)
            let messages = try await collect(2, from: consumer)
            await consumer.close()
            let headers = try messages.map { try EventCoding.decoder.decode(EventHeader.self, from: Data($0.value)) }
            #expect(headers.map(\.type) == [EventTypes.partnerApplied, EventTypes.partnerApproved])
            let applied = try EventCoding.decoder.decode(EventEnvelope<PartnerApplied>.self, from: Data(try #require(messages.first).value))
            #expect(applied.payload == PartnerApplied(userId: applicant, name: "Madame Apply", termsVersion: "2026-11"))

            // The profile is there, approved, its fee unpaid: not listed until auth makes the account a partner and
            // the fee is paid through the provider.
            (_, body) = try await harness.request(.get, "/v1/admin/partners", bearer: admin)
            let profile = try #require(body["partners"].array.first { $0["id"].string == applicant.uuidString.lowercased() })
            #expect(profile["approved"].bool == true && profile["feeStatus"].string == "unpaid" && profile["listed"].bool == false)
            try await harness.publish(EventTypes.userRoleChanged, UserRoleChanged(userId: applicant, role: .partner), user: applicant)
            (status, _) = try await harness.notifyPayment(
                "pay_fee_apply", reference: "fee:\(applicant.uuidString.lowercased())", status: "paid", secret: Self.secret)
            #expect(status == .ok)
            #expect(
                try await eventually {
                    try await harness.request(.get, "/v1/partners").1["partners"].array.contains { $0["name"].string == "Madame Apply" }
                })
        }
    }

    @Test("B6: a rejected applicant reads the reason and may apply again; the application goes with the account")
    func rejectedAndErased() async throws {
        try await BookingTestHarness.run { harness in
            let applicant = UUID()
            let token = try await harness.bookerToken(applicant.uuidString, entitlements: [])
            var (status, body) = try await harness.request(
                .post, "/v1/me/partner-application", json: Self.application(terms: "2026-11"), bearer: token)
            #expect(status == .created)
            let admin = try await harness.adminToken()
            (status, body) = try await harness.request(
                .post, "/v1/admin/partner-applications/\(applicant)/decision", json: ["approve": false, "reason": "Add a photo, please."],
                bearer: admin)
            #expect(status == .ok && body["status"].string == "rejected")
            (_, body) = try await harness.request(.get, "/v1/me/partner-application", bearer: token)
            #expect(body["status"].string == "rejected" && body["reason"].string == "Add a photo, please.")
            #expect(try await harness.count("SELECT count(*)::int FROM partners") == 0, "no profile for a rejection")
            (status, body) = try await harness.request(
                .post, "/v1/me/partner-application", json: Self.application(terms: "2026-11", name: "Madame Again"), bearer: token)
            #expect(status == .created && body["status"].string == "pending" && body["name"].string == "Madame Again")
            try await harness.publish(EventTypes.userDeleted, UserDeleted(userId: applicant, by: .owner), user: applicant)
            #expect(try await eventually { try await harness.count("SELECT count(*)::int FROM partner_applications") == 0 })
        }
    }
}
