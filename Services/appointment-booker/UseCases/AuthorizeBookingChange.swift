import Foundation
import PlatformCore
import PlatformEvents

/// The booking a caller may move or cancel (B2, B3), and how the caller stands to it: `BookingChangeRules` on the
/// booking as read, then, for its partner, what auth's events said about the account (a banned partner, or one no
/// longer a partner, is refused before its token expires). The change itself judges the booking again as stored.
package struct AuthorizeBookingChange: Sendable {
    package let bookings: any BookingLookup
    package let accounts: CheckAccount

    package init(bookings: any BookingLookup, accounts: CheckAccount) {
        self.bookings = bookings
        self.accounts = accounts
    }

    /// Throws `BookingChangeRules.Refusal` (`.notVisible` also for a booking that does not exist) and `AccountRefusal`.
    package func callAsFunction(
        _ id: UUID, by caller: AuthenticatedUser, for change: BookingChangeRules.Change
    ) async throws -> (booking: Booking, actor: BookingActor) {
        guard let booking = try await bookings.find(id) else { throw BookingChangeRules.Refusal.notVisible }
        let actor = try BookingChangeRules.actor(caller, on: booking, for: change)
        if actor == .partner { try await accounts.activePartner(caller) }
        return (booking, actor)
    }
}
