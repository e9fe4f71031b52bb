import Foundation

/// What marking and unmarking a favourite (W8) and the signed-in view's `isFavourite` need from storage:
/// `UserCityStore` in Postgres (which publishes `favourite.added`/`favourite.removed` in the same transaction), a
/// memory one in the unit tests.
protocol FavouriteCities: Sendable {
    /// Marks a favourite unless the user has `limit` already.
    func addFavourite(userId: String, city: City, limit: Int) async throws -> FavouriteAdding
    /// Unmarks a favourite; true when it was one.
    func removeFavourite(userId: String, city: City) async throws -> Bool
    /// The ids of the user's favourite cities, in one read: what `FavouriteIdsCache` keeps per user.
    func favouriteIds(userId: String) async throws -> Set<Int>
}

/// What the recents (W7) need from storage: `UserCityStore` in Postgres, a memory one in the unit tests.
protocol RecentCityViews: Sendable {
    /// Writes several users' views at once (`RecentViewsRecorder`'s flush): each user's cities move to the top of their
    /// recents in the order they were viewed, and the recents keep the newest few. A user whose only view is of their
    /// newest recent city, viewed within a minute before, needs no write (a client reloading one city).
    func recordViews(_ batch: [UserCityViews]) async throws
}

/// One user's views waiting to be written: one per city, oldest first.
struct UserCityViews: Sendable, Equatable {
    var userId: String
    var views: [CityView]
}

/// A city viewed, and when.
struct CityView: Sendable, Equatable {
    var cityId: Int
    var viewedAt: Date
}

/// The city catalogue as the favourites see it: `CityStore` in Postgres, a memory one in the unit tests.
protocol CityDirectory: Sendable {
    func find(id: Int) async throws -> City?
}

extension UserCityStore: FavouriteCities, RecentCityViews {}
extension CityStore: CityDirectory {}
