import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// The devices whose daily forecast may be due (A5), with each city they follow and what is known there.
enum DailyForecastTargets {
    /// One device and one city it follows (current location first), with the forecast there as JSON texts.
    typealias Target = (
        token: String, userId: String, zone: String, cityId: Int, cityJSON: String, temperatureC: Double, condition: String,
        description: String, daysJSON: String
    )

    /// Each device whose local day began within `window` of `now`, with each city it follows where its settings
    /// allow forecasts and a forecast is known. Postgres picks the time zones whose day began that recently and
    /// reads only their devices through the `devices_by_zone` index (the zone a device's day follows, kept by
    /// triggers), so a round costs the devices due, not every device every minute.
    static func due(now: Date, window: Duration, on client: PostgresClient, logger: Logger) async throws -> [Target] {
        let windowSeconds = Double(window.components.seconds)
        return try await client.tracedQuery(
            """
            WITH due_zones AS (
                SELECT name FROM pg_timezone_names
                WHERE (\(now)::timestamptz AT TIME ZONE name)::time < make_interval(secs => \(windowSeconds))::time
            )
            SELECT d.token, d.user_id, d.effective_zone, f.city_id, f.city::text,
                f.temperature_c, f.condition, f.description, f.days::text
            FROM devices d
            JOIN LATERAL (
                SELECT d.current_city_id AS city_id, 0 AS settings_row
                UNION
                SELECT fav.city_id, fav.city_id FROM favourites fav WHERE fav.user_id = d.user_id
            ) followed ON followed.city_id IS NOT NULL
            JOIN city_forecasts f ON f.city_id = followed.city_id
            WHERE d.app = 'weather' AND d.effective_zone = ANY(ARRAY(SELECT name FROM due_zones))
                AND COALESCE(
                    (SELECT s.forecasts FROM notification_settings s WHERE s.user_id = d.user_id AND s.city_id = followed.settings_row), true)
            """,
            logger: logger
        ).decode((String, String, String, Int, String, Double, String, String, String).self).collectAll()
    }
}
