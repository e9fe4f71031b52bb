import PlatformCore

/// Each user's favourite city ids for a few seconds (`WEATHER_FAVOURITES_CACHE_MS`), so a signed-in city view says
/// whether the city is a favourite without a query of its own (W8, W3): one read per user and TTL. The user's own
/// marks and unmarks on this instance drop their entry at once (`MarkFavourite`, `UnmarkFavourite`), as do an account
/// erasure or merge (`UserCitiesOwner`); another instance's change shows within the TTL.
package typealias FavouriteIdsCache = TTLCache<String, Set<Int>>

extension TTLCache where Key == String, Value == Set<Int> {
    /// Bounded by the users active within one TTL, with room to spare.
    package static func favourites(ttl: Duration) -> FavouriteIdsCache { FavouriteIdsCache(ttl: ttl, capacity: 200_000) }

    /// Whether `cityId` is one of the user's favourites, from the entry or one read of `store`.
    package func isFavourite<Store: FavouriteCities>(_ cityId: Int, userId: String, in store: Store) async throws -> Bool {
        try await value(for: userId) { try await store.favouriteIds(userId: userId) }.contains(cityId)
    }
}
