import Foundation
import PlatformEvents

/// Cancels a booking (B2). The rule (`CancellationRules`) judges the booking as read; the store then cancels it
/// only if it is still as read (live, same start), so a booking cancelled or moved in between is read and judged
/// again instead of being cancelled on a stale judgement. nil when there is no such booking.
package struct CancelBooking: Sendable {
    /// More changes than this in a row between read and write is a hot booking: the caller tries again later.
    package static let attempts = 5

    package let bookings: any BookingCancellation
    package let cutoffSeconds: Double

    package init(bookings: any BookingCancellation, cutoffSeconds: Double) {
        self.bookings = bookings
        self.cutoffSeconds = cutoffSeconds
    }

    package func callAsFunction(_ id: UUID, by actor: BookingActor, reason: String?, now: Date) async throws -> Booking? {
        for _ in 0..<Self.attempts {
            guard let current = try await bookings.find(id) else { return nil }
            try CancellationRules.check(current, by: actor, reason: reason, now: now, cutoffSeconds: cutoffSeconds)
            if let cancelled = try await bookings.cancel(current, by: actor, reason: reason) { return cancelled }
        }
        throw BookingRefusal.busy
    }
}
