import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// Per-user city lists: recents (W7) and favourites (W8). Marking and unmarking a favourite publishes
/// `favourite.added` / `favourite.removed` through the outbox, in the same transaction.
struct UserCityStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// How many recent cities a user keeps (the seed: 10).
    let recentLimit: Int
    /// The key of `erased_accounts`, whose accounts' views are dropped.
    let erased: ErasedAccounts
    /// Topic of favourite events (tests use their own).
    var userCitiesTopic = TopicCatalogue.userCities.name

    /// Writes a flush of noted views in one transaction: each user's cities, in viewing order, move to the top of
    /// their recents, which then keep `recentLimit` entries. A user whose only view is of the city already on top,
    /// viewed within the minute before, is skipped (a client reloading one city should not cost a write). An erased
    /// or merged-away account's views are dropped: a flush that raced its erasure must not bring its data back.
    func recordViews(_ batch: [UserCityViews]) async throws {
        guard !batch.isEmpty else { return }
        var users: [String] = [], hashes: [String] = [], unkeyed: [String] = [], cityIds: [Int] = [], times: [Date] = [], alone: [Bool] = []
        for user in batch {
            let (hash, unkeyedHash) = (erased.storedValue(of: user.userId), ErasedAccounts.unkeyedHash(of: user.userId))
            for view in user.views {
                users.append(user.userId)
                hashes.append(hash)
                unkeyed.append(unkeyedHash)
                cityIds.append(view.cityId)
                times.append(view.viewedAt)
                alone.append(user.views.count == 1)
            }
        }
        let distinctUsers = batch.map(\.userId)
        try await client.inTransaction(logger: logger) { connection in
            // Rows are numbered in input order, which is each user's viewing order: their view_order follows it.
            try await connection.tracedQuery(
                """
                INSERT INTO recent_cities (user_id, city_id, viewed_at, view_order)
                SELECT v.user_id, v.city_id, v.viewed_at, nextval('city_view_sequence')
                FROM unnest(
                    \(users)::text[], \(cityIds)::integer[], \(times)::timestamptz[], \(alone)::boolean[], \(hashes)::text[], \(unkeyed)::text[])
                    WITH ORDINALITY AS v(user_id, city_id, viewed_at, alone, id_hash, unkeyed_hash, n)
                WHERE NOT EXISTS (SELECT 1 FROM erased_accounts e WHERE e.id_hash IN (v.id_hash, v.unkeyed_hash))
                  AND NOT (v.alone AND EXISTS (
                      SELECT 1 FROM recent_cities r
                      WHERE r.user_id = v.user_id AND r.city_id = v.city_id AND r.viewed_at > v.viewed_at - interval '1 minute'
                        AND r.view_order = (SELECT max(view_order) FROM recent_cities WHERE user_id = v.user_id)))
                ORDER BY v.n
                ON CONFLICT (user_id, city_id) DO UPDATE SET viewed_at = excluded.viewed_at, view_order = excluded.view_order
                """,
                logger: logger)
            try await connection.tracedQuery(
                """
                DELETE FROM recent_cities r USING (
                    SELECT user_id, city_id, row_number() OVER (PARTITION BY user_id ORDER BY view_order DESC) AS place
                    FROM recent_cities WHERE user_id = ANY(\(distinctUsers)::text[])) ranked
                WHERE r.user_id = ranked.user_id AND r.city_id = ranked.city_id AND ranked.place > \(recentLimit)
                """,
                logger: logger)
        }
    }

    /// The user's recent cities, newest first.
    func recents(userId: String) async throws -> [(city: City, viewedAt: Date)] {
        let rows = try await client.tracedQuery(
            """
            SELECT c.id, c.name, c.ascii_name, c.country_code, c.country, c.region, c.latitude, c.longitude, c.time_zone,
                c.population, r.viewed_at
            FROM recent_cities r JOIN cities c ON c.id = r.city_id
            WHERE r.user_id = \(userId) ORDER BY r.view_order DESC LIMIT \(recentLimit)
            """,
            logger: logger)
        var result: [(City, Date)] = []
        for try await row in rows.decode((Int, String, String, String, String, String, Double, Double, String, Int, Date).self) {
            result.append((CityStore.decode((row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9)), row.10))
        }
        return result
    }

    /// Marks a favourite unless the user has `limit` already; the user's marks take turns, so two at once cannot pass it.
    func addFavourite(userId: String, city: City, limit: Int) async throws -> FavouriteAdding {
        try await client.inTransaction(logger: logger) { connection in
            try await connection.tracedQuery(
                "SELECT pg_advisory_xact_lock(hashtextextended('favourites:' || \(userId), 0))", logger: logger)
            let rows = try await connection.tracedQuery(
                """
                SELECT count(*)::int, count(*) FILTER (WHERE city_id = \(city.id))::int FROM favourite_cities WHERE user_id = \(userId)
                """, logger: logger)
            let (count, this) = try await rows.decode((Int, Int).self).collectAll().first ?? (0, 0)
            if this > 0 { return .alreadyFavourite }
            guard count < limit else { return .full }
            try await connection.tracedQuery(
                "INSERT INTO favourite_cities (user_id, city_id) VALUES (\(userId), \(city.id)) ON CONFLICT DO NOTHING", logger: logger)
            try await publish(EventTypes.favouriteAdded, userId: userId, city: city, on: connection)
            return .added
        }
    }

    /// Unmarks a favourite; true when it was one.
    @discardableResult
    func removeFavourite(userId: String, city: City) async throws -> Bool {
        try await client.inTransaction(logger: logger) { connection in
            let rows = try await connection.tracedQuery(
                "DELETE FROM favourite_cities WHERE user_id = \(userId) AND city_id = \(city.id) RETURNING city_id", logger: logger)
            let removed = try await rows.collectAll().count == 1
            if removed { try await publish(EventTypes.favouriteRemoved, userId: userId, city: city, on: connection) }
            return removed
        }
    }

    private func publish(_ type: EventType, userId: String, city: City, on connection: PostgresConnection) async throws {
        let envelope = EventEnvelope(
            type: type, producer: ServiceIdentity.weatherFetcher.name, key: userId,
            payload: FavouriteChanged(userId: userId, city: city.forecastCity))
        try await Outbox.enqueue(envelope, toTopicNamed: userCitiesTopic, on: connection, logger: logger)
    }

    /// The ids of the user's favourite cities.
    func favouriteIds(userId: String) async throws -> Set<Int> {
        let rows = try await client.tracedQuery("SELECT city_id FROM favourite_cities WHERE user_id = \(userId)", logger: logger)
        return Set(try await rows.decode(Int.self).collectAll())
    }

    /// The user's favourites, in the order they were marked.
    func favourites(userId: String) async throws -> [City] {
        let rows = try await client.tracedQuery(
            """
            SELECT c.id, c.name, c.ascii_name, c.country_code, c.country, c.region, c.latitude, c.longitude, c.time_zone,
                c.population
            FROM favourite_cities f JOIN cities c ON c.id = f.city_id
            WHERE f.user_id = \(userId) ORDER BY f.created_at, c.id
            """,
            logger: logger)
        return try await rows.decode(CityStore.Row.self).collectAll().map(CityStore.decode)
    }
}
