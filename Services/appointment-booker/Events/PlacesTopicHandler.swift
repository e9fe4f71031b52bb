import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// places-importer's `places.places` events: places of worship into the read model the horoscope's bad-luck advice
/// reads (B4), with places-importer's answers to this service's requests; ratings are not needed here.
struct PlacesTopicHandler: EventHandler {
    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        switch event.header.type {
        case EventTypes.placeUpserted:
            try await WorshipPlaceStore.apply(try event.payload(as: PlaceUpserted.self), on: connection, logger: logger)
        case EventTypes.worshipPlacesFound:
            try await WorshipRequestStore.apply(try event.payload(as: WorshipPlacesFound.self), on: connection, logger: logger)
        case EventTypes.placeRated:
            return
        default:
            throw EventDecodingError(reason: "appointment-booker does not handle \(event.header.type) events")
        }
    }
}
