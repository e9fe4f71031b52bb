import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// The daily horoscope notification's settings per user (B5): on or off, the sign, and the local time and zone.
struct DailyHoroscopeStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    typealias Setting = DailyHoroscopeSetting

    func setting(of user: String) async throws -> Setting {
        let rows = try await client.tracedQuery(
            "SELECT enabled, sign, to_char(local_time, 'HH24:MI'), time_zone FROM daily_horoscopes WHERE user_id = \(user)", logger: logger)
        for try await (enabled, sign, time, zone) in rows.decode((Bool, String?, String?, String?).self) {
            return Setting(enabled: enabled, sign: sign, localTime: time, timeZone: zone)
        }
        return Setting(enabled: false)
    }

    /// Whether Postgres knows `zone` by that name: the scheduler reads each row's clock there, and one zone it
    /// does not know would fail every round.
    func knows(zone: String) async throws -> Bool {
        let rows = try await client.tracedQuery("SELECT 1 FROM pg_timezone_names WHERE name = \(zone)", logger: logger)
        return try await rows.collectAll().count == 1
    }

    /// Stores the whole setting (the caller fills what the request left out); `last_sent_on` stays, so a change of
    /// time or zone does not send a day's notification twice.
    func set(_ change: Setting, of user: String) async throws -> Setting {
        try await client.tracedQuery(
            """
            INSERT INTO daily_horoscopes (user_id, enabled, sign, local_time, time_zone)
            VALUES (\(user), \(change.enabled), \(change.sign), \(change.localTime)::time, \(change.timeZone))
            ON CONFLICT (user_id) DO UPDATE SET enabled = excluded.enabled, sign = excluded.sign, local_time = excluded.local_time,
                time_zone = excluded.time_zone, updated_at = now()
            """, logger: logger)
        return try await setting(of: user)
    }
}
