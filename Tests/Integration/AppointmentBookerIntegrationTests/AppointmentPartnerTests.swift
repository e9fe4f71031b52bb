import Foundation
import HTTPTypes
import PlatformEvents
import ServiceTestSupport
import TestSupport
import Testing

@testable import AppointmentBooker

@Suite("appointment-booker: partners, approval and ads")
struct AppointmentPartnerTests {
    @Test("B1: only an account auth made a partner gets a profile; unapproved or unpaid partners are not listed; a partner edits its own profile")
    func partnerLifecycle() async throws {
        try await BookingTestHarness.run { harness in
            let admin = try await harness.adminToken()
            let stranger = UUID()
            var (status, body) = try await harness.request(
                .post, "/v1/admin/partners",
                json: ["accountId": stranger.uuidString, "name": "X", "description": "", "contact": "x", "languages": ["en"], "timeZone": "UTC"],
                bearer: admin)
            #expect(status == .unprocessableContent && body["error"]["code"].string == "not_a_partner")
            let partner = try await harness.listedPartner(approved: false)
            (status, body) = try await harness.request(.get, "/v1/partners")
            #expect(status == .ok && body["partners"].count == 0)
            (status, body) = try await harness.request(.get, "/v1/partners/\(partner)")
            #expect(status == .notFound)
            (status, body) = try await harness.request(
                .post, "/v1/admin/partners",
                json: ["accountId": partner.uuidString, "name": "Again", "description": "", "contact": "x", "languages": ["en"], "timeZone": "UTC"],
                bearer: admin)
            #expect(status == .conflict && body["error"]["code"].string == "partner_exists")
            (status, body) = try await harness.request(.patch, "/v1/admin/partners/\(partner)", json: ["timeZone": "Mars/Olympus"], bearer: admin)
            #expect(status == .unprocessableContent && body["error"]["code"].string == "unknown_time_zone")
            (status, body) = try await harness.request(.patch, "/v1/admin/partners/\(partner)", json: ["approved": true], bearer: admin)
            #expect(status == .ok && body["listed"].bool == true)
            let partnerToken = try await harness.partnerToken(partner)
            (status, body) = try await harness.request(
                .patch, "/v1/partner/profile", json: ["description": "Thai astrology", "languages": ["th"]], bearer: partnerToken)
            #expect(status == .ok && body["description"].string == "Thai astrology" && body["languages"].count == 1)
            (status, body) = try await harness.request(.patch, "/v1/partner/profile", json: ["approved": true], bearer: partnerToken)
            #expect(status == .badRequest, "approval is the admin's")
            // X3: a photo the apps load is https only: no javascript:, data: or plain http links reach a device.
            for link in ["javascript:alert(1)", "data:image/png;base64,AAAA", "http://cdn.example.com/me.png", "https://"] {
                (status, body) = try await harness.request(.patch, "/v1/partner/profile", json: ["photoUrl": link], bearer: partnerToken)
                #expect(status == .badRequest && body["error"]["details"]["photoUrl"].string != nil, "\(link): \(body.raw ?? "")")
            }
            (status, body) = try await harness.request(
                .patch, "/v1/partner/profile", json: ["photoUrl": "https://cdn.example.com/me.png"], bearer: partnerToken)
            #expect(status == .ok && body["photoUrl"].string == "https://cdn.example.com/me.png")
            (status, body) = try await harness.request(.get, "/v1/partner/profile", bearer: try await harness.bookerToken())
            #expect(status == .forbidden)
            (status, body) = try await harness.request(.get, "/v1/partners?language=en")
            #expect(status == .ok && body["partners"].count == 0, "the partner speaks only Thai now")
            // A partner whose account auth later banned drops out of the listing.
            try await harness.publish(EventTypes.userBanned, UserBanned(userId: partner, banned: true), user: partner)
            #expect(try await eventually { try await harness.request(.get, "/v1/partners").1["partners"].count == 0 })
        }
    }

    @Test("U6: a partner's contact only for callers holding contact_fortune_teller (not revoked), the partner itself and admins")
    func contactIsPurchased() async throws {
        try await BookingTestHarness.run { harness in
            let partner = try await harness.listedPartner()
            let buyer = UUID()
            @Sendable func contact(bearer: String?) async throws -> (listed: String?, profile: String?, requires: String?) {
                let (listStatus, list) = try await harness.request(.get, "/v1/partners", bearer: bearer)
                let (profileStatus, profile) = try await harness.request(.get, "/v1/partners/\(partner)", bearer: bearer)
                #expect(listStatus == .ok && profileStatus == .ok && list["partners"].count == 1)
                #expect(list["partners"][0]["name"].string == "Madame Test" && profile["description"].string == "Tarot and palms")
                return (list["partners"][0]["contact"].string, profile["contact"].string, profile["contactRequires"].string)
            }
            let hidden = try await contact(bearer: nil)
            #expect(hidden.listed == nil && hidden.profile == nil && hidden.requires == "contact_fortune_teller", "anonymous: \(hidden)")
            let unpaid = try await contact(bearer: try await harness.bookerToken(entitlements: []))
            #expect(unpaid.listed == nil && unpaid.profile == nil && unpaid.requires == "contact_fortune_teller", "no purchase: \(unpaid)")
            let paid = try await contact(bearer: try await harness.bookerToken(buyer.uuidString))
            #expect(paid.listed == "+66 2 000 0000" && paid.profile == "+66 2 000 0000" && paid.requires == nil, "purchased: \(paid)")
            #expect(try await contact(bearer: try await harness.adminToken()).profile == "+66 2 000 0000")
            #expect(try await contact(bearer: try await harness.partnerToken(partner)).profile == "+66 2 000 0000")

            // A refund revokes the feature: the token still names it until it expires, the contact is withheld at once.
            try await harness.publish(
                EventTypes.entitlementRevoked, EntitlementRevoked(userId: buyer, entitlement: .contactFortuneTeller), user: buyer)
            let revoked = try await eventually {
                try await contact(bearer: try await harness.bookerToken(buyer.uuidString)).profile == nil
            }
            #expect(revoked, "a revoked purchase no longer shows the contact")
        }
    }

    @Test("B1: partners with a paid ad running now are listed first; an unpaid or ended ad does not promote; pages say when there are more")
    func promotedFirst() async throws {
        try await BookingTestHarness.run { harness in
            let admin = try await harness.adminToken()
            let amara = try await harness.listedPartner(name: "Amara")
            let zed = try await harness.listedPartner(name: "Zed")
            let yan = try await harness.listedPartner(name: "Yan")
            var (status, body) = try await harness.request(.get, "/v1/partners")
            #expect(body["partners"].array.compactMap { $0["name"].string } == ["Amara", "Yan", "Zed"])
            let now = Date()
            let iso = ISO8601DateFormatter()
            (status, body) = try await harness.request(
                .post, "/v1/admin/partners/\(zed)/ads",
                json: ["startsAt": iso.string(from: now.addingTimeInterval(-3600)), "endsAt": iso.string(from: now.addingTimeInterval(86_400))],
                bearer: admin)
            #expect(status == .created && body["paymentStatus"].string == "unpaid" && body["active"].bool == false)
            let ad = try #require(body["id"].string)
            (status, body) = try await harness.request(
                .post, "/v1/admin/partners/\(yan)/ads",
                json: ["startsAt": iso.string(from: now.addingTimeInterval(-7200)), "endsAt": iso.string(from: now.addingTimeInterval(-3600))],
                bearer: admin)
            _ = try await harness.request(
                .patch, "/v1/admin/partners/\(yan)/ads/\(try #require(body["id"].string))", json: ["paymentStatus": "paid"], bearer: admin)
            (status, body) = try await harness.request(.get, "/v1/partners")
            #expect(body["partners"].array.compactMap { $0["name"].string } == ["Amara", "Yan", "Zed"], "unpaid and ended ads do not promote")
            (status, body) = try await harness.request(.patch, "/v1/admin/partners/\(zed)/ads/\(ad)", json: ["paymentStatus": "paid"], bearer: admin)
            #expect(status == .ok && body["active"].bool == true)
            (status, body) = try await harness.request(.get, "/v1/partners?pageSize=2")
            #expect(body["partners"].array.compactMap { $0["name"].string } == ["Zed", "Amara"] && body["hasMore"].bool == true)
            #expect(body["partners"][0]["promoted"].bool == true)
            (status, body) = try await harness.request(.get, "/v1/partners?page=2&pageSize=2")
            #expect(body["partners"].array.compactMap { $0["name"].string } == ["Yan"] && body["hasMore"].bool == false)
            (status, body) = try await harness.request(
                .post, "/v1/admin/partners/\(amara)/ads", json: ["startsAt": iso.string(from: now), "endsAt": iso.string(from: now)], bearer: admin)
            #expect(status == .unprocessableContent && body["error"]["details"]["endsAt"].string != nil)
            (status, body) = try await harness.request(.get, "/v1/admin/partners/\(zed)/ads", bearer: admin)
            #expect(status == .ok && body["ads"].count == 1)
        }
    }

    @Test("B1, B3: availability is validated: 400 for shapes the document states, 422 for an end before its start")
    func availabilityValidation() async throws {
        try await BookingTestHarness.run { harness in
            let partner = try await harness.listedPartner()
            let token = try await harness.partnerToken(partner)
            var (status, body) = try await harness.request(
                .put, "/v1/partners/\(partner)/availability",
                json: ["weekly": [["weekday": 1, "start": "17:00", "end": "09:00"]], "exceptions": []],
                bearer: token)
            #expect(status == .unprocessableContent && body["error"]["details"]["weekly[0].end"].string != nil)
            (status, body) = try await harness.request(
                .put, "/v1/partners/\(partner)/availability",
                json: ["weekly": [["weekday": 8, "start": "25:00", "end": "09:00"]], "exceptions": []],
                bearer: token)
            #expect(status == .badRequest && body["error"]["details"]["weekly[0].weekday"].string != nil)
            (status, body) = try await harness.request(
                .put, "/v1/partners/\(partner)/availability",
                json: ["weekly": [], "exceptions": [["date": "2027-01-01", "kind": "extra"]]], bearer: token)
            #expect(status == .unprocessableContent)
            (status, body) = try await harness.request(
                .put, "/v1/partners/\(partner)/availability", json: ["weekly": [], "exceptions": []],
                bearer: try await harness.partnerToken(UUID()))
            #expect(status == .forbidden, "a partner sets only its own availability")
            (status, body) = try await harness.request(.get, "/v1/partners/\(partner)/availability")
            #expect(status == .ok && body["weekly"].count == 7)
        }
    }
}
