import Foundation
import Logging
import PostgresNIO
import Shared

/// The latest forecast per city: what the daily message quotes (A5), and the guard that keeps an older
/// forecast arriving late from undoing a newer one's warnings.
enum ForecastStore {
    /// Stores the forecast; false when a forecast as new or newer is already stored (the event is stale).
    static func record(_ forecast: ForecastUpdated, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let city = String(decoding: try EventCoding.encoder.encode(forecast.city), as: UTF8.self)
        let rows = try await connection.query(
            """
            INSERT INTO city_forecasts (city_id, city, fetched_at, temperature_c, condition, description)
            VALUES (\(forecast.city.id), \(city)::jsonb, \(forecast.fetchedAt), \(forecast.currentTemperatureC),
                \(forecast.currentCondition), \(forecast.currentDescription))
            ON CONFLICT (city_id) DO UPDATE SET city = EXCLUDED.city, fetched_at = EXCLUDED.fetched_at,
                temperature_c = EXCLUDED.temperature_c, condition = EXCLUDED.condition, description = EXCLUDED.description
            WHERE city_forecasts.fetched_at < EXCLUDED.fetched_at
            RETURNING city_id
            """,
            logger: logger)
        return try await rows.collectAll().count == 1
    }
}
