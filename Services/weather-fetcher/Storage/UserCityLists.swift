import Foundation

/// What marking and unmarking a favourite (W8) needs from storage: `UserCityStore` in Postgres (which publishes
/// `favourite.added`/`favourite.removed` in the same transaction), a memory one in the unit tests.
protocol FavouriteCities: Sendable {
    /// Marks a favourite; true when it was not one before.
    func addFavourite(userId: String, city: City) async throws -> Bool
    /// Unmarks a favourite; true when it was one.
    func removeFavourite(userId: String, city: City) async throws -> Bool
}

/// What a signed-in city view (W7) needs from storage: `UserCityStore` in Postgres, a memory one in the unit tests.
protocol RecentCityViews: Sendable {
    /// Whether the city is already the user's newest recent view from the last minute, and whether it is a favourite,
    /// in one round trip.
    func viewState(userId: String, cityId: Int) async throws -> (isNewestRecentView: Bool, isFavourite: Bool)
    /// Moves the city to the top of the user's recents, which keep the newest few. Postgres also writes nothing for
    /// a city already on top within the last minute, for two views racing past `viewState`.
    func recordView(userId: String, cityId: Int) async throws
}

/// The city catalogue as the favourites see it: `CityStore` in Postgres, a memory one in the unit tests.
protocol CityDirectory: Sendable {
    func find(id: Int) async throws -> City?
}

extension UserCityStore: FavouriteCities, RecentCityViews {}
extension CityStore: CityDirectory {}
