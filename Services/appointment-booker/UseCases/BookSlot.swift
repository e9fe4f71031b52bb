import Foundation
import PlatformCore

/// Books a partner's slot for a user (B2, B3, U6). A retry with the same `Idempotency-Key` is answered with
/// what the first request made before any rule is looked at again (its slot may have begun since); otherwise
/// the partner must take bookings, the start must name one of its free slots, and the account's state, read in
/// the storage's transaction, must allow booking.
package struct BookSlot: Sendable {
    package static let entitlement = "contact_fortune_teller"

    package let partners: any PartnerDirectory
    package let bookings: any BookingRepository
    package let choice: SlotChoice

    package init(partners: any PartnerDirectory, bookings: any BookingRepository, choice: SlotChoice) {
        self.partners = partners
        self.bookings = bookings
        self.choice = choice
    }

    package func callAsFunction(
        _ user: AuthenticatedUser, partner partnerId: UUID, startsAt: Date, idempotencyKey key: String?, booker: Booker = Booker(),
        now: Date
    ) async throws -> Booking {
        guard user.role != .guest else { throw BookingRefusal.guestsNotAllowed }
        let account = AccountKey.of(user.id)
        if let key, let first = try await bookings.made(by: account, key: key) {
            guard first.isAskedAgain(partner: partnerId, startsAt: startsAt) else {
                throw BookingRefusal.idempotencyKeyReused
            }
            return first
        }
        guard let partner = try await partners.find(partnerId) else { throw BookingRefusal.partnerNotFound }
        guard partner.listed else { throw BookingRefusal.partnerNotBookable }
        let slot = try choice.slot(startingAt: startsAt, of: partner, now: now)
        let outcome = try await bookings.book(
            partner: partner.id, user: account, startsAt: BookingTime.date(slot.start), endsAt: BookingTime.date(slot.end),
            idempotencyKey: key, booker: booker, check: { state in try Self.checkMayBook(user, state: state) })
        switch outcome {
        case .booked(let booking), .replayed(let booking): return booking
        case .taken: throw BookingRefusal.slotTaken
        case .keyReused: throw BookingRefusal.idempotencyKeyReused
        }
    }

    /// U6: the token names the entitlement and no revocation came since; the account is not banned.
    package static func checkMayBook(_ user: AuthenticatedUser, state: AccountState) throws(BookingRefusal) {
        do {
            try state.checkMayUse(entitlement, claimed: user.has(entitlement: entitlement))
        } catch {
            throw error == .accountBanned ? .accountBanned : .entitlementRequired
        }
    }
}
