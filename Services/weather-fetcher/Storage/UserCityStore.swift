import Foundation
import Logging
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
    /// Topic of favourite events (tests use their own).
    var userCitiesTopic = TopicCatalogue.userCities.name

    /// Records a view: the city moves to the top of the user's recents, which keep `recentLimit` entries.
    /// Viewing the city that is already on top within the last minute writes nothing (a client reloading
    /// one city should not cost a commit per request).
    func recordView(userId: String, cityId: Int) async throws {
        try await client.inTransaction(logger: logger) { connection in
            let changed = try await connection.tracedQuery(
                """
                INSERT INTO recent_cities (user_id, city_id) VALUES (\(userId), \(cityId))
                ON CONFLICT (user_id, city_id) DO UPDATE SET viewed_at = now(), view_order = nextval('city_view_sequence')
                WHERE recent_cities.viewed_at < now() - interval '1 minute'
                   OR recent_cities.view_order < (SELECT max(view_order) FROM recent_cities WHERE user_id = \(userId))
                RETURNING city_id
                """,
                logger: logger
            ).collectAll()
            guard !changed.isEmpty else { return }
            try await connection.tracedQuery(
                """
                DELETE FROM recent_cities WHERE user_id = \(userId) AND city_id NOT IN (
                    SELECT city_id FROM recent_cities WHERE user_id = \(userId) ORDER BY view_order DESC LIMIT \(recentLimit))
                """,
                logger: logger)
        }
    }

    /// What one request needs to know about the user and the city, in one round trip: whether the city is
    /// already the user's newest recent view from the last minute (then the view needs no write), and whether
    /// it is a favourite.
    func viewState(userId: String, cityId: Int) async throws -> (isNewestRecentView: Bool, isFavourite: Bool) {
        let rows = try await client.tracedQuery(
            """
            SELECT
                EXISTS (SELECT 1 FROM recent_cities r
                        WHERE r.user_id = \(userId) AND r.city_id = \(cityId) AND r.viewed_at > now() - interval '1 minute'
                          AND r.view_order = (SELECT max(view_order) FROM recent_cities WHERE user_id = \(userId))),
                EXISTS (SELECT 1 FROM favourite_cities WHERE user_id = \(userId) AND city_id = \(cityId))
            """,
            logger: logger)
        return try await rows.decode((Bool, Bool).self).collectAll().first ?? (false, false)
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

    /// Marks a favourite; true when it was not one before.
    @discardableResult
    func addFavourite(userId: String, city: City) async throws -> Bool {
        try await client.inTransaction(logger: logger) { connection in
            let rows = try await connection.tracedQuery(
                """
                INSERT INTO favourite_cities (user_id, city_id) VALUES (\(userId), \(city.id))
                ON CONFLICT DO NOTHING RETURNING city_id
                """,
                logger: logger)
            let added = try await rows.collectAll().count == 1
            if added { try await publish(EventTypes.favouriteAdded, userId: userId, city: city, on: connection) }
            return added
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
