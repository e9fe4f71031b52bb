import Foundation
import PlatformCore

/// An appointment of a user with a partner (B2). `booked` until cancelled; a moved booking keeps its id.
struct Booking: Sendable, Equatable {
    var id: UUID
    var partnerId: UUID
    var userId: String
    var startsAt: Date
    var endsAt: Date
    var status: BookingStatus
    var cancelledBy: BookingActor?
    var cancelReason: String?
    var createdAt: Date
    /// The partner's zone, in which the booking's times are shown.
    var timeZone: String
    /// What the user chose to share with the partner when booking (U6).
    var booker = Booker()
}

/// The name and contact a user shares with the fortune teller it books (U6), each optional.
struct Booker: Sendable, Equatable {
    var name: String?
    var contact: String?
}

extension Booking {
    /// Whether a request retried with this booking's `Idempotency-Key` asks for it again: the same partner and
    /// start (in whole seconds, as slots are computed).
    func isAskedAgain(partner: UUID, startsAt: Date) -> Bool {
        partnerId == partner && BookingTime.seconds(self.startsAt) == BookingTime.seconds(startsAt)
    }
}

/// A booking is live until cancelled; a cancelled one stays for its history.
enum BookingStatus: String, Sendable {
    case booked, cancelled
}

/// Who acts on a booking, as the token says.
enum BookingActor: String, Sendable {
    case user, partner, admin, system

    /// How a caller stands to a booking (B2, B3): any admin, the booking's partner, its user; nil for anyone else,
    /// who is not told the booking exists.
    static func of(_ caller: AuthenticatedUser, on booking: Booking) -> BookingActor? {
        if caller.role == .admin { return .admin }
        if caller.role == .partner, AccountKey.of(caller.id) == AccountKey.of(booking.partnerId) { return .partner }
        if AccountKey.of(caller.id) == booking.userId { return .user }
        return nil
    }
}
