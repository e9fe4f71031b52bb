import Foundation

/// What marking and unmarking a favourite (W8) and the signed-in view's `isFavourite` need from storage:
/// `UserCityStore` in Postgres (which publishes `favourite.added`/`favourite.removed` in the same transaction), a
/// memory one in the unit tests.
package protocol FavouriteCities: Sendable {
    /// Marks a favourite unless the user has `limit` already.
    func addFavourite(userId: String, city: City, limit: Int) async throws -> FavouriteAdding
    /// Unmarks a favourite; true when it was one.
    func removeFavourite(userId: String, city: City) async throws -> Bool
    /// The ids of the user's favourite cities, in one read: what `FavouriteIdsCache` keeps per user.
    func favouriteIds(userId: String) async throws -> Set<Int>
}
