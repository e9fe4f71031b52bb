import PlatformEvents
import PlatformKafka

/// Where accepted telemetry goes (N1): the telemetry topic (`KafkaTelemetryLog`), or memory in the unit tests. The
/// aggregates are built from this log, not from the request.
protocol TelemetryLog: Sendable {
    /// Appends a batch's events in order, waiting until every one is stored; a throw means none can be counted on,
    /// and the client sends the batch again (the ids make that harmless).
    func append(_ events: [EventEnvelope<TelemetryRecorded>]) async throws
}

/// The telemetry topic: each event keyed by its user, so one user's events stay in order.
struct KafkaTelemetryLog: TelemetryLog {
    let producer: KafkaProducer
    let topic: String

    func append(_ events: [EventEnvelope<TelemetryRecorded>]) async throws {
        // One encoder for the batch: making one per event costs more than encoding a small event.
        let encoder = EventCoding.encoder
        let messages = try events.map { KafkaOutgoingMessage(topic: topic, key: $0.key, value: Array(try encoder.encode($0))) }
        try await producer.send(messages)
    }
}
