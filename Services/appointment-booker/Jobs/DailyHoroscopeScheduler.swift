import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PostgresNIO
import ServiceLifecycle

/// Queues each day's horoscope for the users who turned the notification on (B5), once their local time of day
/// has come, one per local day (`DailyHoroscopeQueue`). warning-detector pushes it to the user's horoscope-app
/// devices.
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
        let queued = try await DailyHoroscopeQueue(client: client, topic: topic, logger: logger).queueDue(now: now) { user, signId, dayText in
            guard let sign = content.sign(signId), let day = CivilDate(parsing: dayText) else {
                logger.warning("daily horoscope skipped: unknown sign or day", metadata: ["sign": "\(signId)", "day": "\(dayText)"])
                return nil
            }
            let reading = engine.horoscope(sign: sign, on: day)
            return HoroscopeDailyDue(
                userId: user, sign: sign.id, localDate: dayText, titleEn: reading.title.en, titleTh: reading.title.th, textEn: reading.text.en,
                textTh: reading.text.th)
        }
        if queued > 0 { logger.info("daily horoscopes queued", metadata: ["count": "\(queued)"]) }
        return queued
    }
}
