import Foundation
import Synchronization
import Testing

@testable import AppointmentBooker

/// Moving a booking (B2) against bookings in memory: to a free slot of its partner only, never once cancelled or
/// begun, and a booking that changed since it was read says why it cannot move.
@Suite("appointment-booker: MoveBooking")
struct MoveBookingTests {
    static let monday = BookSlotTests.monday
    static let now = BookSlotTests.now

    /// A partner receiving Mondays 09:00-17:00 UTC and a booking of it at 09:00, seen at `now`.
    func setup() throws -> (MoveBooking, MemoryBookings, Booking) {
        let partner = try BookSlotTests.partner()
        let bookings = MemoryBookings(clock: { Self.now })
        let booking = Booking(
            id: UUID(), partnerId: partner.id, userId: "user-1", startsAt: Self.monday, endsAt: Self.monday.addingTimeInterval(3_600),
            status: .booked, cancelledBy: nil, cancelReason: nil, createdAt: Self.now, timeZone: "UTC")
        bookings.insert(booking)
        let move = MoveBooking(
            partners: MemoryPartners(partners: [partner.id: partner]), bookings: bookings,
            choice: SlotChoice(slots: SlotCalculator(slotMinutes: 60), horizonDays: 60))
        return (move, bookings, booking)
    }

    @Test("B2: a booking moves to another free slot of its partner")
    func moves() async throws {
        let (move, bookings, booking) = try setup()
        let moved = try await move(booking, to: Self.monday.addingTimeInterval(2 * 3_600), by: .partner, now: Self.now)
        #expect(moved.startsAt == Self.monday.addingTimeInterval(2 * 3_600) && moved.endsAt == Self.monday.addingTimeInterval(3 * 3_600))
        #expect(try await bookings.find(booking.id)?.startsAt == moved.startsAt)
    }

    @Test("B2, B3: not onto another booking, nor outside the partner's hours")
    func refusedSlots() async throws {
        let (move, bookings, booking) = try setup()
        let other = Booking(
            id: UUID(), partnerId: booking.partnerId, userId: "user-2", startsAt: Self.monday.addingTimeInterval(3_600),
            endsAt: Self.monday.addingTimeInterval(7_200), status: .booked, cancelledBy: nil, cancelReason: nil, createdAt: Self.now, timeZone: "UTC"
        )
        bookings.insert(other)
        await #expect(throws: BookingRefusal.slotTaken) { _ = try await move(booking, to: other.startsAt, by: .admin, now: Self.now) }
        await #expect(throws: BookingRefusal.outsideAvailability) {
            _ = try await move(booking, to: Self.monday.addingTimeInterval(-3_600), by: .admin, now: Self.now)
        }
        #expect(try await bookings.find(booking.id)?.startsAt == Self.monday)
    }

    @Test("B2: a cancelled or begun booking does not move")
    func cancelledOrBegun() async throws {
        let (move, _, booking) = try setup()
        var cancelled = booking
        cancelled.status = .cancelled
        await #expect(throws: MoveBooking.Refusal.cancelled) { _ = try await move(cancelled, to: Self.monday, by: .admin, now: Self.now) }
        await #expect(throws: MoveBooking.Refusal.alreadyStarted) {
            _ = try await move(booking, to: Self.monday.addingTimeInterval(7_200), by: .admin, now: Self.monday.addingTimeInterval(60))
        }
    }

    @Test("B2: a booking cancelled between the read and the move says it was cancelled")
    func cancelledMeanwhile() async throws {
        let (move, bookings, booking) = try setup()
        bookings.beforeWrite.withLock {
            $0 = { id in bookings.markCancelled(id) }
        }
        await #expect(throws: MoveBooking.Refusal.cancelled) {
            _ = try await move(booking, to: Self.monday.addingTimeInterval(7_200), by: .admin, now: Self.now)
        }
    }
}
