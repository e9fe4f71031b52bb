import Foundation
import PlatformCore
import PlatformEvents
import Testing

@testable import AppointmentBooker

/// Who may cancel a booking when (B2), as refusals of the domain.
@Suite("appointment-booker: cancellation rules")
struct CancellationRulesTests {
    static let now = Date(timeIntervalSince1970: 1_894_000_000)

    static func booking(startingIn seconds: TimeInterval, status: BookingStatus = .booked) -> Booking {
        Booking(
            id: UUID(), partnerId: UUID(), userId: "user-1", startsAt: now.addingTimeInterval(seconds),
            endsAt: now.addingTimeInterval(seconds + 3_600),
            status: status, cancelledBy: nil, cancelReason: nil, createdAt: now, timeZone: "UTC")
    }

    static func refusal(_ booking: Booking, by actor: BookingActor, reason: String? = nil) -> CancellationRules.Refusal? {
        do {
            try CancellationRules.check(booking, by: actor, reason: reason, now: now, cutoffSeconds: 86_400)
            return nil
        } catch {
            return error
        }
    }

    @Test("B2: a user cancels until the cut-off; a partner with a reason; an admin always; nobody once it began or twice")
    func rules() {
        #expect(Self.refusal(Self.booking(startingIn: 2 * 86_400), by: .user) == nil)
        #expect(Self.refusal(Self.booking(startingIn: 3_600), by: .user) == .cutoffPassed)
        #expect(Self.refusal(Self.booking(startingIn: 3_600), by: .partner) == .reasonRequired)
        #expect(Self.refusal(Self.booking(startingIn: 3_600), by: .partner, reason: "ill") == nil)
        #expect(Self.refusal(Self.booking(startingIn: 60), by: .admin) == nil)
        #expect(Self.refusal(Self.booking(startingIn: -60), by: .admin) == .alreadyStarted)
        #expect(Self.refusal(Self.booking(startingIn: 2 * 86_400, status: .cancelled), by: .admin) == .alreadyCancelled)
    }

    @Test("B2, B3: an admin, the booking's partner and its user act on it; anyone else is not told it exists")
    func actors() {
        let booking = Self.booking(startingIn: 86_400)
        let partner = AuthenticatedUser(id: booking.partnerId.uuidString.uppercased(), role: .partner, entitlements: [])
        #expect(BookingActor.of(AuthenticatedUser(id: "anyone", role: .admin, entitlements: []), on: booking) == .admin)
        #expect(BookingActor.of(partner, on: booking) == .partner, "a partner's id matches in any case")
        #expect(BookingActor.of(AuthenticatedUser(id: "user-1", role: .user, entitlements: []), on: booking) == .user)
        #expect(BookingActor.of(AuthenticatedUser(id: "user-2", role: .user, entitlements: []), on: booking) == nil)
        #expect(BookingActor.of(AuthenticatedUser(id: UUID().uuidString, role: .partner, entitlements: []), on: booking) == nil)
    }
}
