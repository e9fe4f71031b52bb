/// Why the booking rules refuse a booking (B2, B3, U6): outcomes of the domain, not HTTP answers. The API maps
/// each to its error (`BookingErrors.answer(for:)`), so use cases and storage are tested without a server.
package enum BookingRefusal: Error, Equatable {
    case guestsNotAllowed
    case partnerNotFound
    case partnerNotBookable
    case slotInPast
    case beyondHorizon
    case outsideAvailability
    case slotTaken
    case idempotencyKeyReused
    case entitlementRequired
    case accountBanned
    /// The booking kept colliding with other changes (a deadlock victim each time); worth trying again.
    case busy
    /// The account holds `held` bookings that have not ended, in all or with this partner (`LiveBookingLimits`);
    /// the soonest of them ends in `retryAfterSeconds`.
    case tooManyLiveBookings(held: Int, withPartner: Bool, retryAfterSeconds: Double)
}
