import Foundation
import Synchronization
import Testing

@testable import AppointmentBooker

/// Cancelling a booking (B2) against bookings in memory: the rule judges the booking as read, and a booking
/// changed between that read and the write is judged again as it is now.
@Suite("appointment-booker: CancelBooking")
struct CancelBookingTests {
    static let now = CancellationRulesTests.now

    func booked(startingIn seconds: TimeInterval) -> (MemoryBookings, Booking) {
        let bookings = MemoryBookings()
        let booking = CancellationRulesTests.booking(startingIn: seconds)
        bookings.insert(booking)
        return (bookings, booking)
    }

    /// Another request moves the booking by `seconds` between the first read and the first write.
    func moveOnce(_ bookings: MemoryBookings, by seconds: TimeInterval) {
        let moved = Mutex(false)
        bookings.beforeWrite.withLock {
            $0 = { id in
                guard
                    moved.withLock({ done in
                        defer { done = true }; return !done
                    })
                else { return }
                bookings.move(id, by: seconds)
            }
        }
    }

    func cancel(_ bookings: MemoryBookings) -> CancelBooking { CancelBooking(bookings: bookings, cutoffSeconds: 86_400) }

    @Test("B2: the user cancels before the cut-off; the booking says who and why")
    func cancels() async throws {
        let (bookings, booking) = booked(startingIn: 2 * 86_400)
        let cancelled = try #require(try await cancel(bookings)(booking.id, by: .user, reason: "ill", now: Self.now))
        #expect(cancelled.status == .cancelled && cancelled.cancelledBy == .user && cancelled.cancelReason == "ill")
        #expect(try await bookings.find(booking.id)?.status == .cancelled)
    }

    @Test("B2: a refusal leaves the booking as it was; an unknown booking is nil")
    func refusals() async throws {
        let (bookings, booking) = booked(startingIn: 3_600)
        await #expect(throws: CancellationRules.Refusal.cutoffPassed) {
            _ = try await cancel(bookings)(booking.id, by: .user, reason: nil, now: Self.now)
        }
        #expect(try await bookings.find(booking.id)?.status == .booked)
        #expect(try await cancel(bookings)(UUID(), by: .admin, reason: nil, now: Self.now) == nil)
    }

    @Test("B2: a booking moved inside the cut-off between the read and the write is judged again and refused")
    func judgedAgainAfterMove() async throws {
        let (bookings, booking) = booked(startingIn: 2 * 86_400)
        moveOnce(bookings, by: -2 * 86_400 + 3_600)  // now an hour away: within the user's cut-off
        await #expect(throws: CancellationRules.Refusal.cutoffPassed) {
            _ = try await cancel(bookings)(booking.id, by: .user, reason: nil, now: Self.now)
        }
        #expect(try await bookings.find(booking.id)?.status == .booked)
    }

    @Test("B2: a booking moved meanwhile but still cancellable is cancelled at its new time")
    func cancelledAfterMove() async throws {
        let (bookings, booking) = booked(startingIn: 3 * 86_400)
        moveOnce(bookings, by: 86_400)
        let cancelled = try #require(try await cancel(bookings)(booking.id, by: .user, reason: nil, now: Self.now))
        #expect(cancelled.startsAt == booking.startsAt.addingTimeInterval(86_400) && cancelled.status == .cancelled)
    }

    @Test("a booking changed before every write is busy, not cancelled on a stale judgement")
    func busyWhenAlwaysChanged() async throws {
        let (bookings, booking) = booked(startingIn: 3 * 86_400)
        bookings.beforeWrite.withLock { $0 = { id in bookings.move(id, by: 60) } }
        await #expect(throws: BookingRefusal.busy) {
            _ = try await cancel(bookings)(booking.id, by: .admin, reason: nil, now: Self.now)
        }
        #expect(try await bookings.find(booking.id)?.status == .booked)
    }
}
