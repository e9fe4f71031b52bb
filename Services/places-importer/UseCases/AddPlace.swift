import Foundation
import PlatformCore

/// Adds a user's place (P4) within the account's daily limit (X3); it waits for an admin's review. A place given
/// by its address alone is placed by the address lookup first. An account not trusted yet (a new install account)
/// adds none: each place takes an admin's review, its rating counts in the averages once listed, and an address
/// spends the look-ups everyone shares.
package struct AddPlace: Sendable {
    package let places: any UserPlaceRepository
    package let limits: AccountDayLimits
    /// Where an address is looked up; without one, a place needs its coordinates.
    package var addresses: (any AddressLocating)? = nil

    package init(places: any UserPlaceRepository, limits: AccountDayLimits, addresses: (any AddressLocating)? = nil) {
        self.places = places
        self.limits = limits
        self.addresses = addresses
    }

    /// `locatingAddress`: the member gave no coordinates, so the candidate's address places it.
    package func callAsFunction(
        _ candidate: PlaceCandidate, by caller: AuthenticatedUser, rating: Rating?, colour: PinColour?, locatingAddress: Bool = false
    ) async throws -> UUID {
        guard caller.trusted else { throw PlacesRefusal.accountNotTrusted }
        let user = caller.id
        var candidate = candidate
        if locatingAddress, let address = candidate.address {
            guard let addresses else { throw PlacesRefusal.lookupUnavailable }
            guard let located = try await addresses.locate(address, account: user) else { throw PlacesRefusal.addressNotFound }
            candidate.place(at: located)
        }
        let limits = limits
        return try await places.add(candidate, user: user, rating: rating, colour: colour) { recent in
            if let refusal = limits.refusalToAdd(recent) { throw refusal }
        }
    }
}
