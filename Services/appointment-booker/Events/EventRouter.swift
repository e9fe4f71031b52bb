import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// The one consumer's handler: auth's account events to `AuthEventHandler`, places-importer's places to the
/// places-of-worship read model (B4), with places-importer's answers to its requests; ratings are skipped; account deletions and merges to `AppointmentsOwner`.
struct EventRouter: EventHandler {
    let auth: AuthEventHandler
    let lifecycle: AccountLifecycleEvents

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        if try await lifecycle.apply(event, on: connection, logger: logger) { return }
        switch event.header.type {
        case EventTypes.placeUpserted:
            try await WorshipPlaceStore.apply(try event.payload(as: PlaceUpserted.self), on: connection, logger: logger)
        case EventTypes.worshipPlacesFound:
            try await WorshipRequestStore.apply(try event.payload(as: WorshipPlacesFound.self), on: connection, logger: logger)
        case EventTypes.placeRated:
            return
        default:
            try await auth.handle(event, connection: connection, logger: logger)
        }
    }
}
