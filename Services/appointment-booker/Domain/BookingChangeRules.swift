import PlatformCore
import PlatformEvents

/// Who may change a booking (B2, B3): only a caller who sees it (its user, its partner, an admin; anyone else is
/// not told it exists), and a move only by its partner or an admin. A partner must also still be an active
/// partner (`AuthorizeBookingChange` asks the account's state).
package enum BookingChangeRules {
    package enum Change: Sendable {
        case move
        case cancel
    }

    package enum Refusal: Error, Equatable {
        /// The caller is not told the booking exists.
        case notVisible
        /// The caller sees the booking but may not make this change to it.
        case notAllowed
    }

    /// How `caller` stands to `booking` when it may make `change` to it.
    package static func actor(_ caller: AuthenticatedUser, on booking: Booking, for change: Change) throws(Refusal) -> BookingActor {
        guard let actor = BookingActor.of(caller, on: booking) else { throw .notVisible }
        if change == .move, actor == .user { throw .notAllowed }
        return actor
    }
}
