import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// weather's `weather.user-cities` events: the names favourites give cities, for the location reports (N2). Facts,
/// not counts: one upsert per batch, the same for every generation.
struct UserCitiesTopicHandler: EventHandler {
    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        try await handle(batch: [event], connection: connection, logger: logger)
    }

    func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws {
        try TopicCatalogue.userCities.requireOwnTypes(events)
        try await FactsStore.apply(try CityNames(decoding: events), on: connection, logger: logger)
    }
}
