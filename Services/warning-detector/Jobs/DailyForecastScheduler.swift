import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformPostgres
import PostgresNIO
import ServiceLifecycle

/// Queues the daily forecast message (A5) for each device once its local day has begun: for its current
/// location and for each favourite, when the user's settings allow forecasts there and a forecast is known.
/// The device's time zone is the one it registered, else its current city's. A device whose day began more
/// than `window` ago (the service was down) waits for the next day rather than get a stale "good morning".
struct DailyForecastScheduler: Service {
    let client: PostgresClient
    let queue: PushQueue
    let tick: Duration
    let window: Duration
    let startGate: StartGate
    let logger: Logger

    func run() async throws {
        await runPeriodically(startGate: startGate, interval: tick, logger: logger, failure: "daily forecast run failed") {
            try await runOnce(now: Date())
        }
    }

    typealias Due = (String, String, String, Int, String, Double, String, String, String)

    /// Queues what is due at `now`; how many messages it queued.
    @discardableResult
    func runOnce(now: Date) async throws -> Int {
        var queued = 0
        for (token, userId, zone, cityId, cityJSON, temperature, condition, description, daysJSON) in try await due(now: now) {
            guard let day = Self.localDay(of: now, timeZone: zone, within: window) else { continue }
            let city = try EventCoding.decoder.decode(ForecastCity.self, from: Data(cityJSON.utf8))
            // The city's own today (a favourite can be a day ahead or behind the device).
            let cityToday = Self.localDay(of: now, timeZone: city.timeZone, within: .seconds(86_400))
            let days = (try? JSONDecoder().decode([DailyExtremes].self, from: Data(daysJSON.utf8))) ?? []
            let payload = PushMessage.dailyForecast(
                city: city, today: days.first { $0.date == cityToday }, temperatureC: temperature, condition: condition,
                description: description)
            if try await queue.enqueueDaily(deviceToken: token, userId: userId, dedupeKey: "daily:\(day):\(cityId)", payload: payload) {
                queued += 1
            }
        }
        if queued > 0 { logger.info("daily forecasts queued", metadata: ["messages": "\(queued)"]) }
        return queued
    }

    /// Each device whose local day began within `window` of `now`, with each city it follows (current location
    /// first) and the settings and forecast there. Postgres picks the time zones whose day began that recently
    /// and reads only their devices through the `devices_by_zone` index (the zone a device's day follows, kept
    /// by triggers), so a round costs the devices due, not every device every minute (A5).
    func due(now: Date) async throws -> [Due] {
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
        ).decode(Due.self).collectAll()
    }

    /// `yyyy-MM-dd` of `now` in the zone when its local day began less than `window` ago, else nil.
    static func localDay(of now: Date, timeZone identifier: String, within window: Duration) -> String? {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        // Calendar finds when the day began (a zone may skip its midnight); CivilDate names the day.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = calendar.startOfDay(for: now)
        guard now.timeIntervalSince(start) < window.seconds else { return nil }
        return CivilDate(now, in: zone)?.description
    }
}
