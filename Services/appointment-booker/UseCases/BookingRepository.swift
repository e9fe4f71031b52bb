import Foundation
import PlatformEvents

/// What booking a slot needs from storage: `BookingStore` in Postgres, a memory one in the unit tests.
package protocol BookingRepository: Sendable {
    /// The booking this user's `key` made, if any.
    func made(by user: String, key: String) async throws -> Booking?

    /// Books after `check` accepted the user's account state, read in the same transaction as the insert; a
    /// second live booking over the same time of one partner is `.taken`. Throws `check`'s refusal, and
    /// `BookingRefusal.partnerNotBookable` when the partner's account stopped being an active partner, and
    /// `.tooManyLiveBookings` past the user's `LiveBookingLimits`. `booker` is what the user shares with the partner.
    func book(
        partner: UUID, user: String, startsAt: Date, endsAt: Date, idempotencyKey: String?, booker: Booker,
        check: @Sendable (AccountState) throws -> Void
    ) async throws -> BookOutcome
}

/// What cancelling a booking needs from storage: `BookingStore` in Postgres, a memory one in the unit tests.
package protocol BookingCancellation: Sendable {
    func find(_ id: UUID) async throws -> Booking?

    /// Cancels `booking` if it is still as it was read (live, the same start) and publishes the cancellation; nil
    /// when it changed meanwhile.
    func cancel(_ booking: Booking, by actor: BookingActor, reason: String?) async throws -> Booking?
}

/// What moving a booking needs from storage.
package protocol BookingMoves: Sendable {
    func find(_ id: UUID) async throws -> Booking?

    /// Moves a live booking not yet begun; `.changed` when it was cancelled or began meanwhile, `.taken` when another
    /// live booking of the partner holds the time. Throws `BookingRefusal.busy` when it kept colliding.
    func move(_ id: UUID, startsAt: Date, endsAt: Date, by actor: BookingActor) async throws -> MoveOutcome
}

package enum MoveOutcome: Equatable {
    case moved(Booking)
    case changed
    case taken
}

/// The partners a booking names.
package protocol PartnerDirectory: Sendable {
    func find(_ id: UUID) async throws -> Partner?
}

package enum BookOutcome: Equatable {
    case booked(Booking)
    /// The booking an earlier request with the same `Idempotency-Key` made.
    case replayed(Booking)
    case taken
    case keyReused
}
