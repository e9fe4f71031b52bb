import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// Keeps the local copy of active warnings (W9 map flag, W10 warning share) from `weather.warnings`.
/// Runs inside the idempotent consumer's transaction, so each event applies once.
struct WarningsTopicHandler: EventHandler {
    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        switch event.header.type {
        case EventTypes.warningIssued, EventTypes.warningUpdated:
            let notice = try event.payload(as: WarningNotice.self)
            try EventDecodingError.checkStorable(notice.onset, field: "onset")
            try EventDecodingError.checkStorable(notice.ends, field: "ends")
            try await CityWarningStore.upsert(notice, occurredAt: event.header.occurredAt, on: connection, logger: logger)
        case EventTypes.warningCancelled:
            try await CityWarningStore.cancel(try event.payload(as: WarningCancelled.self), on: connection, logger: logger)
        default:
            throw EventDecodingError(reason: "weather-fetcher does not handle \(event.header.type) events")
        }
    }
}
