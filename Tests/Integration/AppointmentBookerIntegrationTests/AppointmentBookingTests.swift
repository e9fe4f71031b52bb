import Foundation
import HTTPTypes
import PlatformEvents
import PlatformHTTP
import ServiceTestSupport
import TestSupport
import Testing

@testable import AppointmentBooker

@Suite("appointment-booker: booking a slot")
struct AppointmentBookingTests {
    @Test("X3: one account holds at most BOOKINGS_LIVE_PER_USER live bookings, BOOKINGS_LIVE_PER_USER_PER_PARTNER with one partner")
    func liveBookingCaps() async throws {
        try await BookingTestHarness.run(extraEnvironment: ["BOOKINGS_LIVE_PER_USER": "2", "BOOKINGS_LIVE_PER_USER_PER_PARTNER": "1"]) { harness in
            let (first, second, third) = (try await harness.listedPartner(), try await harness.listedPartner(), try await harness.listedPartner())
            let token = try await harness.bookerToken()
            let (booked, body) = try await harness.book(first, try await harness.futureSlot(first, fromDay: 2), bearer: token)
            #expect(booked == .created)
            var (status, refused) = try await harness.book(first, try await harness.futureSlot(first, fromDay: 3), bearer: token)
            #expect(status == .tooManyRequests && refused["error"]["code"].string == "too_many_bookings", "\(refused)")
            (status, _) = try await harness.book(second, try await harness.futureSlot(second, fromDay: 2), bearer: token)
            #expect(status == .created)
            (status, refused) = try await harness.book(third, try await harness.futureSlot(third, fromDay: 2), bearer: token)
            #expect(status == .tooManyRequests && refused["error"]["code"].string == "too_many_bookings", "\(refused)")
            // Another account is not held back; a cancelled booking frees its place.
            (status, _) = try await harness.book(third, try await harness.futureSlot(third, fromDay: 2), bearer: try await harness.bookerToken())
            #expect(status == .created)
            let id = try #require(body["id"].string)
            (status, _) = try await harness.request(.post, "/v1/bookings/\(id)/cancel", json: [:], bearer: token)
            #expect(status == .ok)
            (status, _) = try await harness.book(third, try await harness.futureSlot(third, fromDay: 3), bearer: token)
            #expect(status == .created)
        }
    }

    @Test("B2: 50 concurrent requests for one slot make exactly one booking and 49 clear conflicts")
    func concurrentBookingsOfOneSlot() async throws {
        try await BookingTestHarness.run { harness in
            let partner = try await harness.listedPartner()
            let slot = try await harness.futureSlot(partner)
            var requests: [(slot: String, token: String, key: String?)] = []
            for _ in 0..<50 { requests.append((slot, try await harness.bookerToken(), nil)) }
            let statuses = try await harness.bookConcurrently(partner, requests).map { ($0.0, $0.1) }
            #expect(statuses.filter { $0.0 == .created }.count == 1)
            #expect(statuses.filter { $0.0 == .conflict && $0.1 == "slot_taken" }.count == 49, "\(statuses)")
            #expect(try await harness.count("SELECT count(*)::int FROM bookings WHERE status = 'booked'") == 1)
            #expect(try await harness.count("SELECT count(*)::int FROM outbox WHERE event_type = 'appointment.booked'") == 1)
            #expect(
                try await harness.count(
                    "SELECT count(*)::int FROM outbox WHERE event_type = 'appointment.booked' AND key = '\(partner.uuidString.lowercased())'") == 1,
                "keyed by the partner, so one partner's changes stay in order")
        }
    }

    @Test(
        "B2: 200 concurrent requests over four slots of one partner: four bookings, 196 conflicts, never a 5xx (no deadlock between racing inserts)")
    func sustainedContention() async throws {
        try await BookingTestHarness.run { harness in
            let partner = try await harness.listedPartner()
            var slots: [String] = []
            for index in 0..<4 { slots.append(try await harness.futureSlot(partner, index: index)) }
            var requests: [(slot: String, token: String, key: String?)] = []
            for index in 0..<200 { requests.append((slots[index % slots.count], try await harness.bookerToken(), nil)) }
            let before = try await harness.deadlocks()
            let statuses = try await harness.bookConcurrently(partner, requests).map(\.0)
            #expect(statuses.filter { $0 == .created }.count == 4)
            #expect(statuses.filter { $0 == .conflict }.count == 196, "\(statuses.filter { $0 != .created && $0 != .conflict })")
            // Racing inserts of one partner take turns: Postgres found no deadlock to break (its count lags a second).
            try await Task.sleep(for: .seconds(2))
            #expect(try await harness.deadlocks() == before)
        }
    }

    @Test("B2: a retry with the same Idempotency-Key returns the first booking, also when the retries race; another slot under the key is 422")
    func idempotentRetry() async throws {
        try await BookingTestHarness.run { harness in
            let partner = try await harness.listedPartner()
            let user = UUID().uuidString
            let token = try await harness.bookerToken(user)
            let slot = try await harness.futureSlot(partner)
            let ids = try await harness.bookConcurrently(partner, Array(repeating: (slot, token, "retry-1"), count: 10))
                .map { $0.0 == .created ? $0.2 : nil }
            #expect(ids.count == 10 && Set(ids).count == 1 && ids.first! != nil, "\(ids)")
            let (status, body) = try await harness.book(partner, slot, bearer: token, key: "retry-1")
            #expect(status == .created && body["id"].string == ids.first!)
            let other = try await harness.futureSlot(partner, index: 1)
            let (reused, error) = try await harness.book(partner, other, bearer: token, key: "retry-1")
            #expect(reused == .unprocessableContent && error["error"]["code"].string == "idempotency_key_reused")
            // Another user's identical key is their own.
            let (second, _) = try await harness.book(partner, other, bearer: try await harness.bookerToken(), key: "retry-1")
            #expect(second == .created)
            #expect(try await harness.count("SELECT count(*)::int FROM bookings") == 2)
            #expect(try await harness.count("SELECT count(*)::int FROM outbox WHERE event_type = 'appointment.booked'") == 2)
        }
    }

    @Test("B3, U6: past slots, times outside availability, unlisted partners, a missing entitlement and guests are refused with clear errors")
    func refusals() async throws {
        try await BookingTestHarness.run { harness in
            let partner = try await harness.listedPartner()
            let token = try await harness.bookerToken()
            func expectError(_ result: (HTTPResponse.Status, JSONValue), _ status: HTTPResponse.Status, _ code: String) {
                #expect(result.0 == status && result.1["error"]["code"].string == code, "\(result.1.raw ?? "")")
            }
            expectError(try await harness.book(partner, "2020-01-06T10:00:00+07:00", bearer: token), .unprocessableContent, "slot_in_past")
            // Two UTC days ahead: 03:00 Bangkok on the slot's day must still be ahead (at 20:15 UTC tomorrow's 03:00
            // Bangkok has passed, and the refusal would be slot_in_past).
            let slot = try await harness.futureSlot(partner, fromDay: 2)
            // Half past is no slot start; 03:00 Bangkok is outside 09:00-17:00.
            expectError(
                try await harness.book(partner, slot.replacingOccurrences(of: ":00:00+", with: ":30:00+"), bearer: token),
                .unprocessableContent, "outside_availability")
            expectError(
                try await harness.book(partner, String(slot.prefix(10)) + "T03:00:00+07:00", bearer: token), .unprocessableContent,
                "outside_availability")
            expectError(try await harness.book(partner, "2099-01-05T10:00:00+07:00", bearer: token), .unprocessableContent, "outside_availability")
            expectError(
                try await harness.book(partner, slot, bearer: try await harness.bookerToken(entitlements: ["tarot"])), .forbidden,
                "entitlement_required")
            let (guest, _) = try await harness.book(partner, slot, bearer: try await harness.tokens.token(role: .guest))
            #expect(guest == .forbidden)
            let (anonymous, _) = try await harness.book(partner, slot, bearer: nil)
            #expect(anonymous == .unauthorized)
            let unapproved = try await harness.listedPartner(name: "Unapproved", approved: false)
            expectError(try await harness.book(unapproved, slot, bearer: token), .unprocessableContent, "partner_not_bookable")
            let unpaid = try await harness.listedPartner(name: "Unpaid", feePaid: false)
            expectError(try await harness.book(unpaid, slot, bearer: token), .unprocessableContent, "partner_not_bookable")
            expectError(try await harness.book(UUID(), slot, bearer: token), .notFound, "partner_not_found")
            let (malformed, body) = try await harness.request(
                .post, "/v1/partners/\(partner)/bookings", json: ["startsAt": "tomorrow"], bearer: token)
            #expect(malformed == .badRequest, "\(body.raw ?? "")")
            // Milliseconds are a valid RFC 3339 time.
            let (withFraction, _) = try await harness.book(partner, slot.replacingOccurrences(of: ":00+", with: ":00.000+"), bearer: token)
            #expect(withFraction == .created)
            #expect(try await harness.count("SELECT count(*)::int FROM bookings") == 1)
        }
    }

    @Test("B2: a user cancels before the cut-off only; a partner cancels with a reason; a cancelled slot is free again")
    func cancellation() async throws {
        // A cut-off of 400 days: every slot is inside it, so the user's own cancellation is refused.
        try await BookingTestHarness.run(extraEnvironment: ["APPOINTMENT_CANCEL_CUTOFF_HOURS": "720"]) { harness in
            let partner = try await harness.listedPartner()
            let user = UUID().uuidString
            let token = try await harness.bookerToken(user)
            let slot = try await harness.futureSlot(partner)
            let (_, booked) = try await harness.book(partner, slot, bearer: token)
            let id = try #require(booked["id"].string)
            var (status, body) = try await harness.request(.post, "/v1/bookings/\(id)/cancel", json: [:], bearer: token)
            #expect(status == .unprocessableContent && body["error"]["code"].string == "cancel_cutoff_passed")
            let partnerToken = try await harness.partnerToken(partner)
            (status, body) = try await harness.request(.post, "/v1/bookings/\(id)/cancel", json: [:], bearer: partnerToken)
            #expect(status == .unprocessableContent && body["error"]["code"].string == "reason_required")
            (status, body) = try await harness.request(.post, "/v1/bookings/\(id)/cancel", json: [:], bearer: try await harness.bookerToken())
            #expect(status == .notFound, "a stranger does not learn the booking exists")
            (status, body) = try await harness.request(.post, "/v1/bookings/\(id)/cancel", json: ["reason": "ill"], bearer: partnerToken)
            #expect(
                status == .ok && body["status"].string == "cancelled" && body["cancelledBy"].string == "partner"
                    && body["cancelReason"].string == "ill")
            (status, body) = try await harness.request(.post, "/v1/bookings/\(id)/cancel", json: ["reason": "ill"], bearer: partnerToken)
            #expect(status == .conflict && body["error"]["code"].string == "already_cancelled")
            #expect(try await harness.slots(partner, from: String(slot.prefix(10))).contains(slot))
            let (again, _) = try await harness.book(partner, slot, bearer: try await harness.bookerToken())
            #expect(again == .created)
            #expect(try await harness.count("SELECT count(*)::int FROM outbox WHERE event_type = 'appointment.cancelled'") == 1)
        }
        try await BookingTestHarness.run(extraEnvironment: ["APPOINTMENT_CANCEL_CUTOFF_HOURS": "0"]) { harness in
            let partner = try await harness.listedPartner()
            let token = try await harness.bookerToken()
            let (_, booked) = try await harness.book(partner, try await harness.futureSlot(partner), bearer: token)
            let (status, body) = try await harness.request(
                .post, "/v1/bookings/\(try #require(booked["id"].string))/cancel", json: [:], bearer: token)
            #expect(status == .ok && body["cancelledBy"].string == "user")
        }
    }

    @Test("U6: the partner sees who booked, with the name and contact the user chose to share; erased with the account")
    func bookerSharesContact() async throws {
        try await BookingTestHarness.run { harness in
            let partner = try await harness.listedPartner()
            let user = UUID()
            let token = try await harness.bookerToken(user.uuidString)
            var (status, body) = try await harness.request(
                .post, "/v1/partners/\(partner)/bookings",
                json: ["startsAt": try await harness.futureSlot(partner), "name": "  Somchai  ", "contact": "LINE: somchai42"], bearer: token)
            #expect(status == .created && body["bookerName"].string == "Somchai" && body["bookerContact"].string == "LINE: somchai42")
            _ = try await harness.book(partner, try await harness.futureSlot(partner, index: 1), bearer: try await harness.bookerToken())
            (status, body) = try await harness.request(.get, "/v1/partner/bookings", bearer: try await harness.partnerToken(partner))
            #expect(status == .ok && body["bookings"].count == 2)
            #expect(body["bookings"][0]["bookerName"].string == "Somchai" && body["bookings"][0]["bookerContact"].string == "LINE: somchai42")
            #expect(body["bookings"][1]["bookerName"].string == nil && body["bookings"][1]["bookerContact"].string == nil, "nothing shared")
            (status, body) = try await harness.request(
                .post, "/v1/partners/\(partner)/bookings",
                json: ["startsAt": try await harness.futureSlot(partner, index: 2), "name": String(repeating: "น", count: 101)], bearer: token)
            #expect(status == .badRequest && body["error"]["details"]["name"].string != nil, "\(body.raw ?? "")")

            try await harness.publish(EventTypes.userDeleted, UserDeleted(userId: user, by: .owner), user: user)
            let erased = try await eventually {
                try await harness.count("SELECT count(*)::int FROM bookings WHERE booker_name IS NOT NULL OR booker_contact IS NOT NULL") == 0
            }
            #expect(erased, "the deleted account's shared name and contact are gone")
        }
    }

    @Test("B2: users list their bookings, partners theirs, admins all; a partner moves a booking to a free slot, not onto a taken one")
    func listAndMove() async throws {
        try await BookingTestHarness.run { harness in
            let partner = try await harness.listedPartner()
            let (alice, bob) = (try await harness.bookerToken(), try await harness.bookerToken())
            let first = try await harness.futureSlot(partner), second = try await harness.futureSlot(partner, index: 1)
            let third = try await harness.futureSlot(partner, index: 2)
            let (_, aliceBooking) = try await harness.book(partner, first, bearer: alice)
            _ = try await harness.book(partner, second, bearer: bob)
            var (status, body) = try await harness.request(.get, "/v1/me/bookings", bearer: alice)
            #expect(status == .ok && body["bookings"].count == 1 && body["bookings"][0]["startsAt"].string == first)
            let partnerToken = try await harness.partnerToken(partner)
            (status, body) = try await harness.request(.get, "/v1/partner/bookings?pageSize=1", bearer: partnerToken)
            #expect(status == .ok && body["bookings"].count == 1 && body["hasMore"].bool == true)
            (status, body) = try await harness.request(.get, "/v1/admin/bookings?partnerId=\(partner)", bearer: try await harness.adminToken())
            #expect(status == .ok && body["bookings"].count == 2)
            (status, _) = try await harness.request(.get, "/v1/admin/bookings", bearer: alice)
            #expect(status == .forbidden)
            let id = try #require(aliceBooking["id"].string)
            (status, body) = try await harness.request(.patch, "/v1/bookings/\(id)", json: ["startsAt": third], bearer: alice)
            #expect(status == .forbidden, "a user cancels and books again")
            (status, body) = try await harness.request(.patch, "/v1/bookings/\(id)", json: ["startsAt": second], bearer: partnerToken)
            #expect(status == .conflict && body["error"]["code"].string == "slot_taken")
            (status, body) = try await harness.request(.patch, "/v1/bookings/\(id)", json: ["startsAt": third], bearer: partnerToken)
            #expect(status == .ok && body["startsAt"].string == third)
            #expect(try await harness.slots(partner, from: String(first.prefix(10)), days: 3).contains(first))
            #expect(try await harness.count("SELECT count(*)::int FROM outbox WHERE event_type = 'appointment.changed'") == 1)
            // An admin moves and cancels any booking.
            let admin = try await harness.adminToken()
            (status, body) = try await harness.request(.patch, "/v1/bookings/\(id)", json: ["startsAt": first], bearer: admin)
            #expect(status == .ok && body["startsAt"].string == first)
            (status, body) = try await harness.request(.post, "/v1/bookings/\(id)/cancel", json: [:], bearer: admin)
            #expect(status == .ok && body["cancelledBy"].string == "admin")
            // A booking that has begun can be neither moved nor cancelled.
            try await harness.db.client.query(
                "UPDATE bookings SET status = 'booked', starts_at = now() - interval '10 minutes', ends_at = now() + interval '50 minutes' WHERE id = \(try #require(UUID(uuidString: id)))",
                logger: harness.db.logger)
            (status, body) = try await harness.request(.patch, "/v1/bookings/\(id)", json: ["startsAt": third], bearer: partnerToken)
            #expect(status == .unprocessableContent && body["error"]["code"].string == "already_started")
            (status, body) = try await harness.request(.post, "/v1/bookings/\(id)/cancel", json: ["reason": "late"], bearer: partnerToken)
            #expect(status == .unprocessableContent && body["error"]["code"].string == "already_started")
        }
    }

    @Test("B3: slots further ahead than bookings open are not listed, and cannot be booked")
    func horizon() async throws {
        try await BookingTestHarness.run(extraEnvironment: ["APPOINTMENT_HORIZON_DAYS": "3"]) { harness in
            let partner = try await harness.listedPartner()
            let soon = try await harness.futureSlot(partner)
            let far = String(ISO8601DateFormatter().string(from: Date().addingTimeInterval(10 * 86_400)).prefix(10))
            #expect(try await harness.slots(partner, from: far, days: 3).isEmpty)
            let (status, body) = try await harness.book(partner, "\(far)T10:00:00+07:00", bearer: try await harness.bookerToken())
            #expect(status == .unprocessableContent && body["error"]["code"].string == "outside_availability")
            #expect(try await harness.book(partner, soon, bearer: try await harness.bookerToken()).0 == .created)
        }
    }
}
