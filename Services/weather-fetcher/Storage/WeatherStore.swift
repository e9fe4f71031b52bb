import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// Each city's latest provider data and the refresh bookkeeping around it (W3-W6, W9).
struct WeatherStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    func latest(cityId: Int) async throws -> LatestWeather? {
        let rows = try await client.tracedQuery(
            """
            SELECT w.report, s.failed_at, s.last_error
            FROM city_weather w LEFT JOIN refresh_state s ON s.city_id = w.city_id
            WHERE w.city_id = \(cityId)
            """,
            logger: logger)
        for try await (json, failedAt, lastError) in rows.decode((String, Date?, String?).self) {
            let report = try WeatherReport.storageDecoder.decode(WeatherReport.self, from: Data(json.utf8))
            return LatestWeather(report: report, failedSince: failedAt.flatMap { $0 > report.fetchedAt ? $0 : nil }, lastError: lastError)
        }
        return nil
    }

    /// Stores refreshed reports and puts their `forecast.updated` events in the outbox, all in one transaction
    /// (W6), with one statement for the reports and one for the events: a provider batch costs three round
    /// trips, not two per city.
    func save(_ batch: [RefreshedCity], topic: String) async throws {
        // One row per city: a city twice in one statement would make the upsert fail; the later report wins.
        var seen: Set<Int> = []
        let refreshed = batch.reversed().filter { seen.insert($0.city.id).inserted }.reversed() as [RefreshedCity]
        guard !refreshed.isEmpty else { return }
        let reports = try refreshed.map { try $0.report.storedJSON() }
        let ids = refreshed.map(\.city.id)
        let providers = refreshed.map(\.report.provider)
        let fetchedAt = refreshed.map(\.report.fetchedAt)
        let temperatures = refreshed.map(\.report.current.temperatureC)
        try await client.inTransaction(logger: logger) { connection in
            try await connection.tracedQuery(
                """
                INSERT INTO city_weather (city_id, provider, fetched_at, temperature_c, report)
                SELECT id, provider, fetched_at, temperature_c, report
                FROM unnest(\(ids)::integer[], \(providers)::text[], \(fetchedAt)::timestamptz[], \(temperatures)::float8[],
                    \(reports)::text[]) AS batch(id, provider, fetched_at, temperature_c, report)
                ON CONFLICT (city_id) DO UPDATE SET provider = EXCLUDED.provider, fetched_at = EXCLUDED.fetched_at,
                    temperature_c = EXCLUDED.temperature_c, report = EXCLUDED.report
                """,
                logger: logger)
            try await Outbox.enqueue(all: refreshed.map(\.event), toTopicNamed: topic, on: connection, logger: logger)
            try await connection.tracedQuery(
                """
                INSERT INTO refresh_state (city_id, attempted_at) SELECT id, now() FROM unnest(\(ids)::integer[]) AS id
                ON CONFLICT (city_id) DO UPDATE SET attempted_at = now(), failed_at = NULL, last_error = NULL,
                    consecutive_failures = 0, claimed_until = '-infinity'
                """,
                logger: logger)
        }
    }

    /// Records a failed refresh; the scheduler tries these cities again after `retryAfter`, not a full cadence.
    func recordFailure(cityIds: [Int], error: String, retryAfter: Duration, cadence: Duration) async throws {
        // attempted_at is what the scheduler compares with the cadence, so it is set back in time.
        let backdate = max(0, cadence.seconds - retryAfter.seconds)
        try await client.tracedQuery(
            """
            INSERT INTO refresh_state (city_id, attempted_at, failed_at, last_error, consecutive_failures)
            SELECT id, now() - make_interval(secs => \(backdate)), now(), \(error.storableText()), 1 FROM unnest(\(cityIds)::integer[]) AS id
            ON CONFLICT (city_id) DO UPDATE SET attempted_at = EXCLUDED.attempted_at, failed_at = now(),
                last_error = EXCLUDED.last_error, consecutive_failures = refresh_state.consecutive_failures + 1,
                claimed_until = '-infinity'
            """,
            logger: logger)
    }

    /// Which cities the scheduler keeps fresh (W6): cities viewed within `viewedWithin`, every favourite, and
    /// every city of at least `mapPopulation` (the map's cities). Claims up to `limit` of those not tried
    /// within `cadence` (oldest first) for `claimFor`, so that no other instance takes them meanwhile.
    func claimDueCities(
        limit: Int, cadence: Duration, viewedWithin: Duration, mapPopulation: Int, claimFor: Duration
    ) async throws -> [City] {
        let rows = try await client.tracedQuery(
            """
            WITH tracked AS (
                SELECT id FROM cities WHERE population >= \(mapPopulation)
                UNION SELECT city_id FROM favourite_cities
                UNION SELECT city_id FROM recent_cities WHERE viewed_at > now() - make_interval(secs => \(viewedWithin.seconds))
            ), due AS (
                SELECT t.id FROM tracked t LEFT JOIN refresh_state s ON s.city_id = t.id
                WHERE (s.city_id IS NULL OR (s.attempted_at IS NULL OR s.attempted_at < now() - make_interval(secs => \(cadence.seconds)))
                       AND s.claimed_until < now())
                ORDER BY s.attempted_at NULLS FIRST, t.id
                LIMIT \(limit)
            ), claimed AS (
                INSERT INTO refresh_state (city_id, claimed_until)
                SELECT id, now() + make_interval(secs => \(claimFor.seconds)) FROM due
                ON CONFLICT (city_id) DO UPDATE SET claimed_until = EXCLUDED.claimed_until
                WHERE refresh_state.claimed_until < now()
                RETURNING city_id
            )
            SELECT \(unescaped: CityStore.columns) FROM cities WHERE id IN (SELECT city_id FROM claimed) ORDER BY id
            """,
            logger: logger)
        return try await rows.decode(CityStore.Row.self).collectAll().map(CityStore.decode)
    }

    /// One city of the map (W9).
    struct MapEntry: Sendable {
        var city: City
        var temperatureC: Double
        var fetchedAt: Date
        var hasActiveWarning: Bool
    }

    /// Every city with data inside the box, biggest first, at most `limit`. A box whose west edge is east of
    /// its east edge crosses the antimeridian.
    func map(box: BoundingBox, limit: Int) async throws -> [MapEntry] {
        let rows = try await client.tracedQuery(
            """
            SELECT c.id, c.name, c.ascii_name, c.country_code, c.country, c.region, c.latitude, c.longitude, c.time_zone,
                c.population, w.temperature_c, w.fetched_at,
                EXISTS (SELECT 1 FROM city_warnings a WHERE a.city_id = c.id AND a.ends > now())
            FROM city_weather w JOIN cities c ON c.id = w.city_id
            WHERE c.latitude BETWEEN \(box.south) AND \(box.north)
              AND (CASE WHEN \(box.west) <= \(box.east) THEN c.longitude BETWEEN \(box.west) AND \(box.east)
                        ELSE c.longitude >= \(box.west) OR c.longitude <= \(box.east) END)
            ORDER BY c.population DESC, c.id
            LIMIT \(limit)
            """,
            logger: logger)
        var entries: [MapEntry] = []
        for try await row in rows.decode((Int, String, String, String, String, String, Double, Double, String, Int, Double, Date, Bool).self) {
            let city = CityStore.decode((row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9))
            entries.append(MapEntry(city: city, temperatureC: row.10, fetchedAt: row.11, hasActiveWarning: row.12))
        }
        return entries
    }
}
