import Foundation
import PlatformEvents

/// Who may cancel a booking when (B2): nobody once it began; its user only until the cut-off before the
/// start; its partner with a reason; an admin always. Checked on the booking's row as the store locked it.
package enum CancellationRules {
    package enum Refusal: Error, Equatable, CaseIterable {
        case alreadyCancelled
        case alreadyStarted
        case cutoffPassed
        case reasonRequired
    }

    package static func check(_ booking: Booking, by actor: BookingActor, reason: String?, now: Date, cutoffSeconds: Double) throws(Refusal) {
        guard booking.status == .booked else { throw .alreadyCancelled }
        guard booking.startsAt > now else { throw .alreadyStarted }
        switch actor {
        case .user where booking.startsAt.timeIntervalSince(now) < cutoffSeconds:
            throw .cutoffPassed
        case .partner where reason == nil:
            throw .reasonRequired
        default:
            return
        }
    }
}
