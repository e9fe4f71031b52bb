import Logging
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
        try await connection.query(
            """
            INSERT INTO outbox (event_id, event_type, topic, key, payload)
            VALUES (\(envelope.id), \(envelope.type.rawValue), \(topic), \(envelope.key), \(bytes))
            """,
            logger: logger)
    }

    /// Many events to one topic with one statement (a provider batch, say): the same rows as `enqueue` for each,
    /// in the order given, so the relay publishes them in this order.
    public static func enqueue<Payload>(
        all envelopes: [EventEnvelope<Payload>], toTopicNamed topic: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        guard !envelopes.isEmpty else { return }
        let payloads = try envelopes.map { ByteBuffer(bytes: try $0.encoded()) }
        // WITH ORDINALITY keeps the array order in the ids the bigserial hands out.
        try await connection.query(
            """
            INSERT INTO outbox (event_id, event_type, topic, key, payload)
            SELECT event_id, event_type, \(topic), key, payload
            FROM unnest(\(envelopes.map(\.id))::uuid[], \(envelopes.map(\.type.rawValue))::text[], \(envelopes.map(\.key))::text[],
                \(payloads)::bytea[]) WITH ORDINALITY AS batch(event_id, event_type, key, payload, position)
            ORDER BY position
            """,
            logger: logger)
    }
}
