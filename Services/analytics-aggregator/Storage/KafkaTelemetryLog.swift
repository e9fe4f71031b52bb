import PlatformEvents
import PlatformKafka

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
