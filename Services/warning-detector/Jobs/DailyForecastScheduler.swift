import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
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

    func due(now: Date) async throws -> [DailyForecastTargets.Target] {
        try await DailyForecastTargets.due(now: now, window: window, on: client, logger: logger)
    }

    /// `yyyy-MM-dd` of `now` in the zone when its local day began less than `window` ago, else nil.
    static func localDay(of now: Date, timeZone identifier: String, within window: Duration) -> String? {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        let clock = ZonedClock(zone: zone)
        let instant = CivilDate.epochSeconds(clamping: now)
        // When the day began: a zone may skip its midnight, so the first instant the day shows, not 00:00.
        let day = clock.localDate(of: instant)
        guard Double(instant - clock.firstInstant(of: day, minute: 0)) < window.seconds else { return nil }
        return day.description
    }
}
