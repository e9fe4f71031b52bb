import Foundation
import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// The latest forecast per city: what the daily message quotes (A5), and the guard that keeps an older
/// forecast arriving late from undoing a newer one's warnings.
enum ForecastStore {
    /// Stores the forecasts (one per city) with one statement; returns the ids of the cities whose forecast was
    /// stored. A city whose stored forecast is as new or newer is left out: its event is stale.
    static func record(_ forecasts: [ForecastUpdated], on connection: PostgresConnection, logger: Logger) async throws -> Set<Int> {
        guard !forecasts.isEmpty else { return [] }
        let cities = try forecasts.map { String(decoding: try EventCoding.encoder.encode($0.city), as: UTF8.self) }
        let days = try forecasts.map { String(decoding: try JSONEncoder().encode(DailyExtremes.of($0)), as: UTF8.self) }
        let rows = try await connection.tracedQuery(
            """
            INSERT INTO city_forecasts (city_id, city, fetched_at, temperature_c, condition, description, days)
            SELECT city_id, city::jsonb, fetched_at, temperature_c, condition, description, days::jsonb
            FROM unnest(\(forecasts.map(\.city.id))::integer[], \(cities)::text[], \(forecasts.map(\.fetchedAt))::timestamptz[],
                \(forecasts.map(\.currentTemperatureC))::float8[], \(forecasts.map(\.currentCondition.rawValue))::text[],
                \(forecasts.map(\.currentDescription))::text[], \(days)::text[])
                AS f(city_id, city, fetched_at, temperature_c, condition, description, days)
            ON CONFLICT (city_id) DO UPDATE SET city = EXCLUDED.city, fetched_at = EXCLUDED.fetched_at,
                temperature_c = EXCLUDED.temperature_c, condition = EXCLUDED.condition, description = EXCLUDED.description,
                days = EXCLUDED.days
            WHERE city_forecasts.fetched_at < EXCLUDED.fetched_at
            RETURNING city_id
            """,
            logger: logger)
        return Set(try await rows.decode(Int.self).collectAll())
    }
}
