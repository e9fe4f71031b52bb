import Logging
import PlatformEvents
import PostgresNIO

/// One handler per consumed topic, each named for what it consumes, chosen by the event's type as the topic
/// catalogue assigns types to topics. A batch is one partition's, so of one topic: it goes whole to its first
/// event's handler, which may apply it more cheaply than event by event, and which refuses a type of another
/// topic; the consumer then applies the batch one event at a time, each through its own topic's handler. A type
/// none of the topics carries is a poison event (it goes to the dead-letter topic).
public struct TopicHandlers: EventHandler {
    private let handlers: [any EventHandler]
    /// Event type → its topic's position in `handlers`.
    private let topicOf: [EventType: Int]

    public init(_ pairs: [(topic: Topic, handler: any EventHandler)]) {
        handlers = pairs.map(\.handler)
        var topicOf: [EventType: Int] = [:]
        for (index, pair) in pairs.enumerated() {
            for type in pair.topic.eventTypes { topicOf[type] = index }
        }
        self.topicOf = topicOf
    }

    public func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        try await handlers[try topic(of: event)].handle(event, connection: connection, logger: logger)
    }

    public func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws {
        guard let first = events.first else { return }
        try await handlers[try topic(of: first)].handle(batch: events, connection: connection, logger: logger)
    }

    private func topic(of event: ReceivedEvent) throws(EventDecodingError) -> Int {
        guard let topic = topicOf[event.header.type] else {
            throw EventDecodingError(reason: "no handler for \(event.header.type) events here")
        }
        return topic
    }
}
