import Foundation

/// An appointment of a user with a partner (B2). `booked` until cancelled; a moved booking keeps its id.
struct Booking: Sendable, Equatable {
    var id: UUID
    var partnerId: UUID
    var userId: String
    var startsAt: Date
    var endsAt: Date
    var status: String
    var cancelledBy: String?
    var cancelReason: String?
    var createdAt: Date
    /// The partner's zone, in which the booking's times are shown.
    var timeZone: String
}

extension Booking {
    /// Whether a request retried with this booking's `Idempotency-Key` asks for it again: the same partner and
    /// start (in whole seconds, as slots are computed).
    func isAskedAgain(partner: UUID, startsAt: Date) -> Bool {
        partnerId == partner && BookingTime.seconds(self.startsAt) == BookingTime.seconds(startsAt)
    }
}

/// Who acts on a booking, as the token says.
enum BookingActor: String, Sendable {
    case user, partner, admin, system
}
