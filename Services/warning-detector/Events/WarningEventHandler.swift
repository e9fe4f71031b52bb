import Foundation
import Logging
import PostgresNIO
import Shared

/// Applies `weather.forecasts` and `weather.user-cities` events, each once, inside the idempotent consumer's
/// transaction: a forecast updates the city's warnings (A1, A2) and queues a notification per new warning
/// for the devices that want it (A5); favourite changes keep the audience current (A4). A payload that does
/// not decode is permanent and goes to the dead-letter topic.
struct WarningEventHandler: EventHandler {
    let detector: WarningDetector
    let warnings: WarningStore

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        switch event.header.type {
        case EventTypes.forecastUpdated:
            let forecast = try event.payload(as: ForecastUpdated.self)
            guard TimeZone(identifier: forecast.city.timeZone) != nil else {
                throw EventDecodingError(reason: "unknown time zone \(forecast.city.timeZone) for city \(forecast.city.id)")
            }
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
        case EventTypes.favouriteAdded:
            try await UserStore.addFavourite(try event.payload(as: FavouriteChanged.self), on: connection, logger: logger)
        case EventTypes.favouriteRemoved:
            try await UserStore.removeFavourite(try event.payload(as: FavouriteChanged.self), on: connection, logger: logger)
        default:
            throw EventDecodingError(reason: "warning-detector does not handle \(event.header.type) events")
        }
    }
}
