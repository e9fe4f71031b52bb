import Foundation
import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// Applies `weather.forecasts` (A1, A2, A5), each event once, inside the idempotent consumer's transaction: a
/// forecast updates its city's warnings and queues a notification per new warning for the devices that want it.
/// A payload that does not decode or carries values no weather has is permanent and goes to the dead-letter topic.
struct ForecastsHandler: EventHandler {
    let detector: WarningDetector
    let warnings: WarningStore

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        try await handle(batch: [event], connection: connection, logger: logger)
    }

    /// A batch keeps only the newest forecast of each city: an older one would be superseded within the same
    /// transaction, and applying it first could issue and at once cancel a warning (and push it). The kept
    /// forecasts are applied together with a fixed number of statements. A bad event fails the batch, and the
    /// consumer then applies its events one by one.
    func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws {
        let forecasts = try await Self.decodeForecasts(events)
        let kept: [Int]
        do {
            kept = try ApplyForecasts.newestPerCity(forecasts)
        } catch {
            let type = events[error.position].header.type
            throw EventDecodingError(reason: "\(type) is not a forecast: it does not belong on the forecasts topic")
        }
        // Each kept forecast's event gets a consumer span of its trace, ended when the forecasts are applied; a
        // warning's events and push deliveries continue the trace of the forecast that issued it. (A forecast
        // superseded by a newer one of its city in the same batch is not applied and gets no span.)
        let keptForecasts = kept.compactMap { forecasts[$0] }
        let eventOfCity = Dictionary(uniqueKeysWithValues: zip(keptForecasts.map(\.city.id), kept.map { events[$0] }))
        try await EventTracing.handlingTogether(kept.map { events[$0] }) { byEvent in
            let traceParents = eventOfCity.compactMapValues { byEvent[$0.header.id] }
            let store = PostgresForecastApplying(warnings: warnings, connection: connection, logger: logger)
            _ = try await ApplyForecasts(detector: detector).run(
                keptForecasts, traceParents: traceParents, store: store, now: Date(), logger: logger)
        }
    }

    /// Decodes and validates the batch's forecasts on all cores: decoding a forecast's JSON (48 hours of values)
    /// was nearly two thirds of the service's CPU in a profile of the consumer, and a batch comes from one
    /// partition, so without this it used one core. Positions without a forecast are nil.
    static func decodeForecasts(_ events: [ReceivedEvent]) async throws -> [ForecastUpdated?] {
        let chunk = 64
        return try await withThrowingTaskGroup(of: (Int, [ForecastUpdated?]).self) { group in
            for start in stride(from: 0, to: events.count, by: chunk) {
                let slice = Array(events[start..<min(events.count, start + chunk)])
                group.addTask {
                    (
                        start,
                        try slice.map { event in
                            guard event.header.type == EventTypes.forecastUpdated else { return nil }
                            let forecast = try event.payload(as: ForecastUpdated.self)
                            try ForecastValidation.validate(forecast)
                            return forecast
                        }
                    )
                }
            }
            var decoded = [ForecastUpdated?](repeating: nil, count: events.count)
            for try await (start, values) in group {
                decoded.replaceSubrange(start..<(start + values.count), with: values)
            }
            return decoded
        }
    }
}
