import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// The consumer's handler (N2, N6): one handler per consumed topic, chosen by `TopicHandlers`. A batch is one
/// partition's, so of one topic: it goes whole to that topic's handler, in the consumer's one transaction. Around
/// them, what the three share: the live consumer gives each traced event a span of its trace (a rebuild re-reads
/// old events, whose traces are long closed), and an event of a type none of the topics carries (a newer
/// producer's) is left out rather than dead-lettered, as analytics counts only what it knows.
struct AnalyticsTopicHandlers: EventHandler {
    private let topics: TopicHandlers
    private let traced: Bool
    private static let known = Set(
        [TopicCatalogue.telemetry, TopicCatalogue.users, TopicCatalogue.userCities].flatMap(\.eventTypes))

    init(telemetry: TelemetryTopicHandler, users: UsersTopicHandler, userCities: UserCitiesTopicHandler, traced: Bool) {
        topics = TopicHandlers([(TopicCatalogue.telemetry, telemetry), (TopicCatalogue.users, users), (TopicCatalogue.userCities, userCities)])
        self.traced = traced
    }

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        try await handle(batch: [event], connection: connection, logger: logger)
    }

    func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws {
        let known = events.filter { Self.known.contains($0.header.type) }
        guard traced else { return try await topics.handle(batch: known, connection: connection, logger: logger) }
        try await EventTracing.handlingTogether(events) { _ in try await topics.handle(batch: known, connection: connection, logger: logger) }
    }
}

extension Topic {
    /// Refuses a batch holding another topic's event, as `TopicHandlers` expects of a topic's handler: the consumer
    /// then applies the batch one event at a time, each through its own topic's handler.
    func requireOwnTypes(_ events: [ReceivedEvent]) throws(EventDecodingError) {
        if let stranger = events.first(where: { !eventTypes.contains($0.header.type) }) {
            throw EventDecodingError(reason: "\(stranger.header.type) is not an event of \(name)")
        }
    }
}
