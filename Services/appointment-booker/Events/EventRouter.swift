import Logging
import PostgresNIO
import Shared

/// The one consumer's handler: auth's account events to `AuthEventHandler`, places-importer's places to the
/// places-of-worship read model (B4); ratings are skipped.
struct EventRouter: EventHandler {
    let auth: AuthEventHandler

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        switch event.header.type {
        case EventTypes.placeUpserted:
            try await WorshipPlaceStore.apply(try event.payload(as: PlaceUpserted.self), on: connection, logger: logger)
        case EventTypes.placeRated:
            return
        default:
            try await auth.handle(event, connection: connection, logger: logger)
        }
    }
}
