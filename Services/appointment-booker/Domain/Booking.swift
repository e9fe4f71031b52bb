import Foundation
import PlatformCore
import PlatformEvents

/// An appointment of a user with a partner (B2). `booked` until cancelled; a moved booking keeps its id.
package struct Booking: Sendable, Equatable {
    package var id: UUID
    package var partnerId: UUID
    package var userId: String
    package var startsAt: Date
    package var endsAt: Date
    package var status: BookingStatus
    package var cancelledBy: BookingActor?
    package var cancelReason: String?
    package var createdAt: Date
    /// The partner's zone, in which the booking's times are shown.
    package var timeZone: String
    /// What the user chose to share with the partner when booking (U6).
    package var booker = Booker()

    package init(
        id: UUID, partnerId: UUID, userId: String, startsAt: Date, endsAt: Date, status: BookingStatus, cancelledBy: BookingActor? = nil,
        cancelReason: String? = nil, createdAt: Date, timeZone: String, booker: Booker = Booker()
    ) {
        self.id = id
        self.partnerId = partnerId
        self.userId = userId
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.status = status
        self.cancelledBy = cancelledBy
        self.cancelReason = cancelReason
        self.createdAt = createdAt
        self.timeZone = timeZone
        self.booker = booker
    }
}

/// The name and contact a user shares with the fortune teller it books (U6), each optional.
package struct Booker: Sendable, Equatable {
    package var name: String?
    package var contact: String?

    package init(name: String? = nil, contact: String? = nil) {
        self.name = name
        self.contact = contact
    }
}

extension Booking {
    /// Whether a request retried with this booking's `Idempotency-Key` asks for it again: the same partner and
    /// start (in whole seconds, as slots are computed).
    package func isAskedAgain(partner: UUID, startsAt: Date) -> Bool {
        partnerId == partner && BookingTime.seconds(self.startsAt) == BookingTime.seconds(startsAt)
    }
}

/// Who acts on a booking, as the token says.
extension BookingActor {
    /// How a caller stands to a booking (B2, B3): any admin, the booking's partner, its user; nil for anyone else,
    /// who is not told the booking exists.
    package static func of(_ caller: AuthenticatedUser, on booking: Booking) -> BookingActor? {
        if caller.role == .admin { return .admin }
        if caller.role == .partner, AccountKey.of(caller.id) == AccountKey.of(booking.partnerId) { return .partner }
        if AccountKey.of(caller.id) == booking.userId { return .user }
        return nil
    }
}
