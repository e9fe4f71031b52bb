import Foundation
import Logging
import PlatformEvents
import PlatformKafka
import PlatformPostgres
import PostgresNIO

/// A payload and a table for the consumer and outbox tests: each applied event adds one row to `effects`.
struct Counted: Codable, Sendable, Equatable {
    var sequence: Int
    var note: String = ""
}

let effectsMigration = Migration(
    "0001_effects", ["CREATE TABLE effects (event_id uuid NOT NULL, sequence int NOT NULL, applied_at timestamptz DEFAULT now())"])

func countedEvent(_ sequence: Int, key: String = "k") -> EventEnvelope<Counted> {
    EventEnvelope(type: EventType("test.counted"), producer: "tests", key: key, payload: Counted(sequence: sequence))
}

/// Records each event as a row of `effects`.
struct RecordEffect: EventHandler {
    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        let payload = try event.payload(as: Counted.self)
        try await connection.query(
            "INSERT INTO effects (event_id, sequence) VALUES (\(event.header.id), \(payload.sequence))", logger: logger)
    }
}

func effectCount(_ client: PostgresClient, eventId: UUID? = nil) async throws -> Int {
    let logger = Logger(label: "test")
    let rows: PostgresRowSequence
    if let eventId {
        rows = try await client.query("SELECT count(*) FROM effects WHERE event_id = \(eventId)", logger: logger)
    } else {
        rows = try await client.query("SELECT count(*) FROM effects", logger: logger)
    }
    for try await count in rows.decode(Int.self) { return count }
    return 0
}

func send<Payload>(_ envelope: EventEnvelope<Payload>, to topic: String, producer: KafkaProducer) async throws {
    try await producer.send(KafkaOutgoingMessage(topic: topic, key: envelope.key, value: try envelope.encoded()))
}
