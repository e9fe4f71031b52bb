import Logging
import PlatformHTTP
import PlatformPostgres
import PostgresNIO

/// weather-fetcher's part in an account's end (U9): its favourite and recent cities are deleted with the
/// account, and follow an install account merged into another (the other's own entries stay as they were). This
/// instance's memory of them goes too: the cached favourites, and the views noted but not yet written.
struct UserCitiesOwner: AccountDataOwner {
    let favourites: FavouriteIdsCache
    let recentViews: RecentViewsRecorder

    func erase(user: String, on connection: PostgresConnection, logger: Logger) async throws {
        recentViews.forget(userId: user)
        favourites.invalidate(user)
        try await connection.tracedQuery("DELETE FROM favourite_cities WHERE user_id = \(user)", logger: logger)
        try await connection.tracedQuery("DELETE FROM recent_cities WHERE user_id = \(user)", logger: logger)
    }

    func merge(from: String, into: String, on connection: PostgresConnection, logger: Logger) async throws {
        recentViews.move(from: from, into: into)
        favourites.invalidate(from)
        favourites.invalidate(into)
        try await connection.tracedQuery(
            """
            INSERT INTO favourite_cities (user_id, city_id, created_at) SELECT \(into), city_id, created_at FROM favourite_cities
            WHERE user_id = \(from) ON CONFLICT (user_id, city_id) DO NOTHING
            """, logger: logger)
        // The newer view of a city both viewed is the one kept, so the recents stay in viewing order.
        try await connection.tracedQuery(
            """
            INSERT INTO recent_cities (user_id, city_id, viewed_at, view_order)
            SELECT \(into), city_id, viewed_at, view_order FROM recent_cities WHERE user_id = \(from)
            ON CONFLICT (user_id, city_id) DO UPDATE SET viewed_at = greatest(recent_cities.viewed_at, excluded.viewed_at),
                view_order = greatest(recent_cities.view_order, excluded.view_order)
            """, logger: logger)
        try await erase(user: from, on: connection, logger: logger)
    }
}
