import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO
import ServiceLifecycle

/// Queues each day's horoscope for the users who turned the notification on (B5), once their local time of day
/// has come: the row's `last_sent_on` and the `horoscope.daily-due` event are written in one transaction, so each
/// local day gets one however often the service restarts or however many instances run (SKIP LOCKED).
/// warning-detector pushes it to the user's horoscope-app devices.
struct DailyHoroscopeScheduler: Service {
    let client: PostgresClient
    let engine: ReadingEngine
    let content: ReadingContent
    let tick: Duration
    let topic: String
    let startGate: StartGate
    let logger: Logger

    func run() async throws {
        await runPeriodically(startGate: startGate, interval: tick, logger: logger, failure: "daily horoscope run failed") {
            _ = try await runOnce()
        }
    }

    /// Queues the notifications due at `now` (at most 500 a round); how many.
    func runOnce(now: Date = Date()) async throws -> Int {
        try await client.inTransaction(logger: logger) { connection -> Int in
            let rows = try await connection.tracedQuery(
                """
                WITH local AS (
                    SELECT user_id, sign, (\(now)::timestamptz AT TIME ZONE time_zone) AS clock FROM daily_horoscopes WHERE enabled
                ), due AS (
                    SELECT d.user_id, l.sign, l.clock::date AS day FROM daily_horoscopes d JOIN local l USING (user_id)
                    WHERE l.clock::time >= d.local_time AND d.last_sent_on IS DISTINCT FROM l.clock::date
                    ORDER BY d.user_id LIMIT 500 FOR UPDATE OF d SKIP LOCKED
                )
                UPDATE daily_horoscopes d SET last_sent_on = due.day FROM due WHERE d.user_id = due.user_id
                RETURNING d.user_id, due.sign, to_char(due.day, 'YYYY-MM-DD')
                """, logger: logger)
            var envelopes: [EventEnvelope<HoroscopeDailyDue>] = []
            for try await (user, signId, dayText) in rows.decode((String, String, String).self) {
                guard let sign = content.sign(signId), let day = CivilDate(parsing: dayText) else {
                    logger.warning("daily horoscope skipped: unknown sign or day", metadata: ["sign": "\(signId)", "day": "\(dayText)"])
                    continue
                }
                let reading = engine.horoscope(sign: sign, on: day)
                envelopes.append(
                    EventEnvelope(
                        type: EventTypes.horoscopeDailyDue, producer: "appointment-booker", key: user,
                        payload: HoroscopeDailyDue(
                            userId: user, sign: sign.id, localDate: dayText, titleEn: reading.title.en, titleTh: reading.title.th,
                            textEn: reading.text.en, textTh: reading.text.th)))
            }
            try await Outbox.enqueue(all: envelopes, toTopicNamed: topic, on: connection, logger: logger)
            if !envelopes.isEmpty { logger.info("daily horoscopes queued", metadata: ["count": "\(envelopes.count)"]) }
            return envelopes.count
        }
    }
}
