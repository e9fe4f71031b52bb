import Foundation
import HTTPTypes
import PlatformEvents
import ServiceTestSupport
import TestSupport
import Testing

@testable import AppointmentBooker

@Suite("appointment-booker: auth's events")
struct AppointmentAuthEventTests {
    @Test("U6: a revoked entitlement refuses new bookings though the token still names it, keeps existing ones, and a later grant restores it")
    func revokedEntitlement() async throws {
        try await BookingTestHarness.run { harness in
            let partner = try await harness.listedPartner()
            let user = UUID()
            let token = try await harness.bookerToken(user.uuidString)
            let (booked, _) = try await harness.book(partner, try await harness.futureSlot(partner), bearer: token)
            #expect(booked == .created)
            try await harness.publish(
                EventTypes.entitlementRevoked, EntitlementRevoked(userId: user, entitlement: .contactFortuneTeller), user: user)
            #expect(try await harness.waitProcessed(atLeast: 2))
            let (refused, body) = try await harness.book(partner, try await harness.futureSlot(partner, index: 1), bearer: token)
            #expect(refused == .forbidden && body["error"]["code"].string == "entitlement_required")
            #expect(try await harness.count("SELECT count(*)::int FROM bookings WHERE status = 'booked'") == 1, "the existing booking stays")
            try await harness.publish(
                EventTypes.entitlementGranted, EntitlementGranted(userId: user, entitlement: .contactFortuneTeller, source: .payment),
                user: user)
            #expect(try await harness.waitProcessed(atLeast: 3))
            let (allowed, _) = try await harness.book(partner, try await harness.futureSlot(partner, index: 1), bearer: token)
            #expect(allowed == .created)
        }
    }

    @Test("U5, B2: a ban cancels the user's future bookings, publishes each cancellation, and refuses new bookings")
    func banCancelsFutureBookings() async throws {
        try await BookingTestHarness.run { harness in
            let partner = try await harness.listedPartner()
            let (user, other) = (UUID(), UUID())
            let token = try await harness.bookerToken(user.uuidString)
            for index in 0..<2 {
                let (status, _) = try await harness.book(partner, try await harness.futureSlot(partner, index: index), bearer: token)
                #expect(status == .created)
            }
            _ = try await harness.book(
                partner, try await harness.futureSlot(partner, index: 2), bearer: try await harness.bookerToken(other.uuidString))
            let ban = try await harness.publish(EventTypes.userBanned, UserBanned(userId: user, banned: true), user: user)
            #expect(try await eventually { try await harness.count("SELECT count(*)::int FROM bookings WHERE status = 'cancelled'") == 2 })
            #expect(
                try await harness.count(
                    "SELECT count(*)::int FROM bookings WHERE cancelled_by = 'system' AND user_id = '\(user.uuidString.lowercased())'") == 2)
            #expect(try await harness.count("SELECT count(*)::int FROM bookings WHERE status = 'booked'") == 1, "another user's booking stays")
            let (refused, body) = try await harness.book(partner, try await harness.futureSlot(partner, index: 3), bearer: token)
            #expect(refused == .forbidden && body["error"]["code"].string == "account_banned")
            // The same event delivered again is applied once: no second round of cancellations.
            // A login of the same user after it, on the same partition, marks when the duplicate has been read.
            try await harness.publish(ban)
            try await harness.publish(EventTypes.userLoggedIn, UserLoggedIn(userId: user, kind: .horoscope), user: user)
            #expect(try await harness.waitProcessed(atLeast: 3), "the partner's role, the ban and the login")
            #expect(try await harness.count("SELECT count(*)::int FROM outbox WHERE event_type = 'appointment.cancelled'") == 2)
            #expect(try await harness.count("SELECT count(*)::int FROM processed_events") == 3)
        }
    }

    @Test("U5, B2: a banned partner's future appointments are cancelled, and its partner token can no longer change anything")
    func bannedPartner() async throws {
        try await BookingTestHarness.run { harness in
            let partner = try await harness.listedPartner()
            let token = try await harness.bookerToken()
            let (_, booked) = try await harness.book(partner, try await harness.futureSlot(partner), bearer: token)
            let id = try #require(booked["id"].string)
            try await harness.publish(EventTypes.userBanned, UserBanned(userId: partner, banned: true), user: partner)
            #expect(try await eventually { try await harness.count("SELECT count(*)::int FROM bookings WHERE status = 'cancelled'") == 1 })
            let partnerToken = try await harness.partnerToken(partner)
            var (status, body) = try await harness.request(
                .put, "/v1/partners/\(partner)/availability", json: ["weekly": [], "exceptions": []], bearer: partnerToken)
            #expect(status == .forbidden && body["error"]["code"].string == "account_banned")
            (status, body) = try await harness.request(.patch, "/v1/partner/profile", json: ["name": "Still here"], bearer: partnerToken)
            #expect(status == .forbidden)
            (status, body) = try await harness.request(.post, "/v1/bookings/\(id)/cancel", json: ["reason": "x"], bearer: partnerToken)
            #expect(status == .forbidden)
            (status, body) = try await harness.request(.get, "/v1/bookings/\(id)", bearer: token)
            #expect(status == .ok && body["status"].string == "cancelled" && body["cancelledBy"].string == "system")
        }
    }

    @Test("U5: events applied once and in order per user: a late older ban does not undo a newer lifting, an older role does not undo a newer one")
    func reorderedEventsKeepTheNewest() async throws {
        try await BookingTestHarness.run { harness in
            let user = UUID()
            let now = Date()
            try await harness.publish(EventTypes.userBanned, UserBanned(userId: user, banned: false), user: user, occurredAt: now)
            try await harness.publish(
                EventTypes.userBanned, UserBanned(userId: user, banned: true), user: user, occurredAt: now.addingTimeInterval(-60))
            try await harness.publish(EventTypes.userRoleChanged, UserRoleChanged(userId: user, role: .partner), user: user, occurredAt: now)
            try await harness.publish(
                EventTypes.userRegistered, UserRegistered(userId: user, kind: .horoscope, role: .user), user: user,
                occurredAt: now.addingTimeInterval(-120))
            try await harness.publish(
                EventTypes.entitlementGranted, EntitlementGranted(userId: user, entitlement: .contactFortuneTeller, source: .admin),
                user: user, occurredAt: now)
            try await harness.publish(
                EventTypes.entitlementRevoked, EntitlementRevoked(userId: user, entitlement: .contactFortuneTeller), user: user,
                occurredAt: now.addingTimeInterval(-30))
            #expect(try await harness.waitProcessed(atLeast: 6))
            #expect(
                try await harness.count(
                    "SELECT count(*)::int FROM accounts WHERE user_id = '\(user.uuidString.lowercased())' AND NOT banned AND role = 'partner'") == 1)
            #expect(
                try await harness.count(
                    "SELECT count(*)::int FROM account_entitlements WHERE user_id = '\(user.uuidString.lowercased())' AND granted") == 1)
        }
    }

    @Test("X2: an auth event with a role nobody knows is dead-lettered, and the events after it still apply")
    func poisonAuthEvent() async throws {
        try await BookingTestHarness.run { harness in
            let (user, next) = (UUID(), UUID())
            // Sent as auth never would: the typed payload cannot hold a role outside `UserRole`.
            try await harness.publish(EventTypes.userRoleChanged, UntypedRoleChange(userId: user, role: "wizard"), user: user)
            try await harness.publish(EventTypes.userRoleChanged, UserRoleChanged(userId: next, role: .partner), user: user)
            #expect(
                try await eventually {
                    try await harness.count("SELECT count(*)::int FROM accounts WHERE user_id = '\(next.uuidString.lowercased())'") == 1
                })
            #expect(try await harness.count("SELECT count(*)::int FROM accounts WHERE user_id = '\(user.uuidString.lowercased())'") == 0)
        }
    }
}

/// `user.role-changed` with its role as any text, for an event from a producer that does not hold to the contract.
private struct UntypedRoleChange: Codable, Sendable {
    var userId: UUID
    var role: String
}
