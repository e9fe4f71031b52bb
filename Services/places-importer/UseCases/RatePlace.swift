import Foundation
import PlatformCore

/// Rates a place the user may see (P3, `Place.isVisible`) within the account's daily limit (X3). A rating counts in
/// everyone's averages, so an account not trusted with that yet (a new install account) may not rate.
package struct RatePlace: Sendable {
    package let catalogue: any PlaceCatalogue
    package let places: any UserPlaceRepository
    package let limits: AccountDayLimits

    package init(catalogue: any PlaceCatalogue, places: any UserPlaceRepository, limits: AccountDayLimits) {
        self.catalogue = catalogue
        self.places = places
        self.limits = limits
    }

    /// Throws `PlacesRefusal.accountNotTrusted` for an untrusted caller, `PlacesRefusal.placeNotFound` for a place that
    /// does not exist or that the user may not see.
    package func callAsFunction(_ placeId: UUID, by caller: AuthenticatedUser, rating: Rating) async throws -> PlaceRatingAggregate {
        guard caller.trusted else { throw PlacesRefusal.accountNotTrusted }
        let user = caller.id
        guard let place = try await catalogue.find(placeId), place.isVisible(to: user) else { throw PlacesRefusal.placeNotFound(placeId) }
        let limits = limits
        return try await places.rate(placeId: place.id, user: user, rating: rating) { recent in
            if let refusal = limits.refusalToRate(recent) { throw refusal }
        }
    }
}
