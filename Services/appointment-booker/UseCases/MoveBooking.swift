import Foundation
import PlatformEvents

/// Moves a live booking not yet begun to another free slot of its partner (B2); who may is the API's access
/// rule (its partner or an admin). The store moves it only if it is still live and not begun, so a booking that
/// changed since it was read is read again to say why it cannot move.
package struct MoveBooking: Sendable {
    package enum Refusal: Error, Equatable {
        case cancelled
        case alreadyStarted
    }

    package let partners: any PartnerDirectory
    package let bookings: any BookingMoves
    package let choice: SlotChoice

    package init(partners: any PartnerDirectory, bookings: any BookingMoves, choice: SlotChoice) {
        self.partners = partners
        self.bookings = bookings
        self.choice = choice
    }

    package func callAsFunction(_ booking: Booking, to start: Date, by actor: BookingActor, now: Date) async throws -> Booking {
        try Self.check(booking, now: now)
        guard let partner = try await partners.find(booking.partnerId) else { throw BookingRefusal.partnerNotFound }
        let slot = try choice.slot(startingAt: start, of: partner, now: now)
        switch try await bookings.move(booking.id, startsAt: BookingTime.date(slot.start), endsAt: BookingTime.date(slot.end), by: actor) {
        case .moved(let moved): return moved
        case .taken: throw BookingRefusal.slotTaken
        case .changed:
            guard let current = try await bookings.find(booking.id) else { throw Refusal.cancelled }
            try Self.check(current, now: now)
            throw Refusal.alreadyStarted  // it began between the read and the move
        }
    }

    package static func check(_ booking: Booking, now: Date) throws(Refusal) {
        guard booking.status == .booked else { throw .cancelled }
        guard booking.startsAt > now else { throw .alreadyStarted }
    }
}
