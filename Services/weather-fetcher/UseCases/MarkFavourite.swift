import Foundation

/// Marks a catalogue city as the user's favourite (W8). Idempotent: marking a favourite twice leaves one, and only
/// the first mark tells warning-detector (the store's event goes with the insert).
package struct MarkFavourite: Sendable {
    package let cities: any CityDirectory
    package let favourites: any FavouriteCities
    /// Dropped for the user after the write, so their next city view shows the mark.
    package let known: FavouriteIdsCache
    /// The most favourites one account keeps (`FAVOURITES_PER_ACCOUNT`).
    package var limit = 100

    package init(cities: any CityDirectory, favourites: any FavouriteCities, known: FavouriteIdsCache, limit: Int = 100) {
        self.cities = cities
        self.favourites = favourites
        self.known = known
        self.limit = limit
    }

    /// True when the city was not a favourite before; throws `FavouriteRefusal.cityNotFound` for an id the catalogue
    /// does not have, `tooManyFavourites` past the limit.
    @discardableResult
    package func callAsFunction(userId: String, cityId: Int) async throws -> Bool {
        guard let city = try await cities.find(id: cityId) else { throw FavouriteRefusal.cityNotFound(cityId) }
        // Also after a failed write: it may have committed before the error.
        defer { known.invalidate(userId) }
        switch try await favourites.addFavourite(userId: userId, city: city, limit: limit) {
        case .added: return true
        case .alreadyFavourite: return false
        case .full: throw FavouriteRefusal.tooManyFavourites(limit)
        }
    }
}
