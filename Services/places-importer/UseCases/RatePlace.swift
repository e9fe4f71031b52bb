import Foundation

/// Rates a place the user may see (P3, `Place.isVisible`) within the account's daily limit (X3).
struct RatePlace: Sendable {
    let catalogue: any PlaceCatalogue
    let places: any UserPlaceRepository
    let limits: AccountDayLimits

    /// Throws `PlacesRefusal.placeNotFound` for a place that does not exist or that the user may not see.
    func callAsFunction(_ placeId: UUID, user: String, rating: Rating) async throws -> UserPlaceStore.Aggregate {
        guard let place = try await catalogue.find(placeId), place.isVisible(to: user) else { throw PlacesRefusal.placeNotFound(placeId) }
        let limits = limits
        return try await places.rate(placeId: place.id, user: user, rating: rating) { recent in
            if let refusal = limits.refusalToRate(recent) { throw refusal }
        }
    }
}
