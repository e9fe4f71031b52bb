import Foundation

/// Who may cancel a booking when (B2): nobody once it began; its user only until the cut-off before the
/// start; its partner with a reason; an admin always.
enum CancellationRules {
    static func check(_ booking: Booking, by actor: BookingActor, reason: String?, now: Date, cutoffSeconds: Double) throws {
        guard booking.status == "booked" else { throw BookingErrors.alreadyCancelled }
        guard booking.startsAt > now else { throw BookingErrors.alreadyStarted }
        switch actor {
        case .user where booking.startsAt.timeIntervalSince(now) < cutoffSeconds:
            throw BookingErrors.cutoffPassed
        case .partner where reason == nil:
            throw BookingErrors.reasonRequired
        default:
            return
        }
    }
}
