import Foundation
import Logging
import PostgresNIO
import Shared

/// Applies `weather.forecasts` and `weather.user-cities` events, each once, inside the idempotent consumer's
/// transaction: a forecast updates the city's warnings (A1, A2) and queues a notification per new warning
/// for the devices that want it (A5); favourite changes keep the audience current (A4). A payload that does
/// not decode or carries values no weather has is permanent and goes to the dead-letter topic.
struct WarningEventHandler: EventHandler {
    let detector: WarningDetector
    let warnings: WarningStore

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        switch event.header.type {
        case EventTypes.forecastUpdated:
            try await apply(try Self.forecast(of: event), connection: connection, logger: logger)
        case EventTypes.favouriteAdded:
            try await UserStore.addFavourite(try event.payload(as: FavouriteChanged.self), on: connection, logger: logger)
        case EventTypes.favouriteRemoved:
            try await UserStore.removeFavourite(try event.payload(as: FavouriteChanged.self), on: connection, logger: logger)
        default:
            throw EventDecodingError(reason: "warning-detector does not handle \(event.header.type) events")
        }
    }

    /// A batch keeps only the newest forecast of each city: an older one would be superseded within the same
    /// transaction, and applying it first could issue and at once cancel a warning (and push it). Other events
    /// apply in order. A bad event fails the batch, and the consumer then applies its events one by one.
    func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws {
        var newest: [Int: (index: Int, fetchedAt: Date)] = [:]
        var forecasts: [Int: ForecastUpdated] = [:]
        for (index, event) in events.enumerated() where event.header.type == EventTypes.forecastUpdated {
            let forecast = try Self.forecast(of: event)
            if let seen = newest[forecast.city.id], seen.fetchedAt > forecast.fetchedAt { continue }
            newest[forecast.city.id] = (index, forecast.fetchedAt)
            forecasts[index] = forecast
        }
        let kept = Set(newest.values.map(\.index))
        for (index, event) in events.enumerated() {
            if let forecast = forecasts[index] {
                guard kept.contains(index) else { continue }
                try await apply(forecast, connection: connection, logger: logger)
            } else if event.header.type != EventTypes.forecastUpdated {
                try await handle(event, connection: connection, logger: logger)
            }
        }
    }

    private static func forecast(of event: ReceivedEvent) throws -> ForecastUpdated {
        let forecast = try event.payload(as: ForecastUpdated.self)
        try ForecastValidation.validate(forecast)
        return forecast
    }

    private func apply(_ forecast: ForecastUpdated, connection: PostgresConnection, logger: Logger) async throws {
        guard try await ForecastStore.record(forecast, on: connection, logger: logger) else {
            logger.debug("older forecast ignored", metadata: ["city": "\(forecast.city.id)"])
            return
        }
        let changes = try await warnings.apply(detector.detect(forecast), forecast: forecast, on: connection)
        for warning in changes.issued {
            let queued = try await PushQueue.enqueue(warning: warning, on: connection, logger: logger)
            logger.info(
                "warning issued",
                metadata: ["city": "\(warning.cityId)", "kind": "\(warning.kind)", "number": "\(warning.announcementNumber)",
                    "notifications": "\(queued)"])
        }
    }
}
