import Foundation

/// Marks a catalogue city as the user's favourite (W8). Idempotent: marking a favourite twice leaves one, and only
/// the first mark tells warning-detector (the store's event goes with the insert).
struct MarkFavourite: Sendable {
    let cities: any CityDirectory
    let favourites: any FavouriteCities

    /// True when the city was not a favourite before; throws `FavouriteRefusal.cityNotFound` for an id the catalogue
    /// does not have.
    @discardableResult
    func callAsFunction(userId: String, cityId: Int) async throws -> Bool {
        guard let city = try await cities.find(id: cityId) else { throw FavouriteRefusal.cityNotFound(cityId) }
        return try await favourites.addFavourite(userId: userId, city: city)
    }
}
