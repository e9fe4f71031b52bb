import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// The users whose daily horoscope is due (B5): their local time of day has come and today's was not sent. The
/// row's `last_sent_on` and the `horoscope.daily-due` event are written in one transaction (SKIP LOCKED), so
/// each local day gets one however often the service restarts or however many instances run.
struct DailyHoroscopeQueue: Sendable {
    let client: PostgresClient
    let topic: String
    let logger: Logger

    /// Queues what is due at `now` (at most `limit`); `reading` makes each user's notice from their sign and
    /// local day, nil to skip it. How many were queued.
    func queueDue(
        now: Date, limit: Int = 500, reading: (_ user: String, _ sign: String, _ day: String) -> HoroscopeDailyDue?
    ) async throws -> Int {
        try await client.inTransaction(logger: logger) { connection -> Int in
            let rows = try await connection.tracedQuery(
                """
                WITH local AS (
                    SELECT user_id, sign, (\(now)::timestamptz AT TIME ZONE time_zone) AS clock FROM daily_horoscopes WHERE enabled
                ), due AS (
                    SELECT d.user_id, l.sign, l.clock::date AS day FROM daily_horoscopes d JOIN local l USING (user_id)
                    WHERE l.clock::time >= d.local_time AND (d.last_sent_on IS NULL OR d.last_sent_on < l.clock::date)
                    ORDER BY d.user_id LIMIT \(limit) FOR UPDATE OF d SKIP LOCKED
                )
                UPDATE daily_horoscopes d SET last_sent_on = due.day FROM due WHERE d.user_id = due.user_id
                RETURNING d.user_id, due.sign, to_char(due.day, 'YYYY-MM-DD')
                """, logger: logger)
            var envelopes: [EventEnvelope<HoroscopeDailyDue>] = []
            for try await (user, sign, day) in rows.decode((String, String, String).self) {
                guard let payload = reading(user, sign, day) else { continue }
                envelopes.append(EventEnvelope(type: EventTypes.horoscopeDailyDue, producer: "appointment-booker", key: user, payload: payload))
            }
            try await Outbox.enqueue(all: envelopes, toTopicNamed: topic, on: connection, logger: logger)
            return envelopes.count
        }
    }
}
