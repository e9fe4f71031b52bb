import Foundation

/// Unmarks a favourite city (W8). Idempotent: unmarking a catalogue city that is not a favourite changes nothing and
/// tells nobody.
package struct UnmarkFavourite: Sendable {
    package let cities: any CityDirectory
    package let favourites: any FavouriteCities
    /// Dropped for the user after the write, so their next city view shows the change.
    package let known: FavouriteIdsCache

    package init(cities: any CityDirectory, favourites: any FavouriteCities, known: FavouriteIdsCache) {
        self.cities = cities
        self.favourites = favourites
        self.known = known
    }

    /// True when the city was a favourite; throws `FavouriteRefusal.cityNotFound` for an id the catalogue does not
    /// have.
    @discardableResult
    package func callAsFunction(userId: String, cityId: Int) async throws -> Bool {
        guard let city = try await cities.find(id: cityId) else { throw FavouriteRefusal.cityNotFound(cityId) }
        // Also after a failed write: it may have committed before the error.
        defer { known.invalidate(userId) }
        return try await favourites.removeFavourite(userId: userId, city: city)
    }
}
