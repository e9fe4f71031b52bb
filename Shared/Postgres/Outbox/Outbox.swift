import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PostgresNIO

/// Writes events to the service's outbox table inside the caller's transaction, so an event exists
/// exactly when the state change it describes was committed. The `OutboxRelay` publishes it afterwards.
public enum Outbox {
    public static func enqueue<Payload>(
        _ envelope: EventEnvelope<Payload>, to topic: Topic, on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await enqueue(envelope, toTopicNamed: topic.name, on: connection, logger: logger)
    }

    /// As `enqueue(_:to:on:logger:)`, for a topic given by name (tests use unique topic names).
    public static func enqueue<Payload>(
        _ envelope: EventEnvelope<Payload>, toTopicNamed topic: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let bytes = ByteBuffer(bytes: try envelope.encoded())  // binds as bytea
        let traceParent = PlatformTracing.currentTraceParent()
        try await connection.tracedQuery(
            """
            INSERT INTO outbox (event_id, event_type, topic, key, payload, trace_parent)
            VALUES (\(envelope.id), \(envelope.type.rawValue), \(topic), \(envelope.key), \(bytes), \(traceParent))
            """,
            logger: logger)
    }

    /// An event ready for the outbox: envelopes of different payload types can go in one statement this way.
    public struct Row: Sendable {
        public let eventId: UUID
        public let type: String
        public let key: String
        public let payload: ByteBuffer
        /// The trace the event was made in (`traceparent`), when tracing is on.
        public let traceParent: String?

        /// `traceParent`: the current span's by default; a handler applying many events' work together names
        /// the trace of the event each row comes from.
        public init<Payload>(_ envelope: EventEnvelope<Payload>, traceParent: String? = PlatformTracing.currentTraceParent()) throws {
            eventId = envelope.id
            type = envelope.type.rawValue
            key = envelope.key
            payload = ByteBuffer(bytes: try envelope.encoded())
            self.traceParent = traceParent
        }
    }

    /// Many events to one topic with one statement (a provider batch, say): the same rows as `enqueue` for each,
    /// in the order given, so the relay publishes them in this order.
    public static func enqueue<Payload>(
        all envelopes: [EventEnvelope<Payload>], toTopicNamed topic: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await enqueue(rows: try envelopes.map { try Row($0) }, toTopicNamed: topic, on: connection, logger: logger)
    }

    /// As `enqueue(all:toTopicNamed:on:logger:)`, for rows made from envelopes of any payload types.
    public static func enqueue(rows: [Row], toTopicNamed topic: String, on connection: PostgresConnection, logger: Logger) async throws {
        guard !rows.isEmpty else { return }
        // WITH ORDINALITY keeps the array order in the ids the bigserial hands out.
        try await connection.tracedQuery(
            """
            INSERT INTO outbox (event_id, event_type, topic, key, payload, trace_parent)
            SELECT event_id, event_type, \(topic), key, payload, trace_parent
            FROM unnest(\(rows.map(\.eventId))::uuid[], \(rows.map(\.type))::text[], \(rows.map(\.key))::text[],
                \(rows.map(\.payload))::bytea[], \(NullableTextArray(rows.map(\.traceParent)))::text[])
                WITH ORDINALITY AS batch(event_id, event_type, key, payload, trace_parent, position)
            ORDER BY position
            """,
            logger: logger)
    }
}
