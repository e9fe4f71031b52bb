import Foundation
import PlatformEvents
import PlatformKafka

/// Why an event went to the dead-letter topic; a label of `events_dead_lettered_total` and the `dlq-reason` header.
public enum DeadLetterReason: String, Sendable, CaseIterable {
    /// The message is not an event envelope.
    case undecodable
    /// The handler or Postgres said the event can never be applied (`EventFailure.permanent`).
    case permanent
    /// An unclassified handler error outlasted the configured attempts.
    case retriesExhausted = "retries_exhausted"
    /// The message took the process down (a trap, a kill) as often as `CONSUMER_MAX_CRASHES` allows.
    case crashLoop = "crash_loop"
    /// The envelope names a producer other than the topic's owner in `TopicCatalogue`.
    case foreignProducer = "foreign_producer"
}

/// Sends an event that cannot be handled to `<topic>.dlq`, unchanged, with headers saying why and where
/// it came from, so an operator can inspect it and re-feed it with `platformctl` once the cause is fixed.
public struct DeadLetterPublisher: Sendable {
    let producer: KafkaProducer
    let service: String

    public init(producer: KafkaProducer, service: String) {
        self.producer = producer
        self.service = service
    }

    public func publish(_ message: KafkaMessage, error: any Error, reason: DeadLetterReason, attempts: Int) async throws {
        var headers = message.headers.filter { !$0.name.hasPrefix("dlq-") }
        headers += [
            KafkaHeader(name: "dlq-error", string: String(describing: error)),
            KafkaHeader(name: "dlq-reason", string: reason.rawValue),
            KafkaHeader(name: "dlq-source-topic", string: message.topic),
            KafkaHeader(name: "dlq-source-partition", string: String(message.partition)),
            KafkaHeader(name: "dlq-source-offset", string: String(message.offset)),
            KafkaHeader(name: "dlq-consumer", string: service),
            KafkaHeader(name: "dlq-attempts", string: String(attempts)),
            KafkaHeader(name: "dlq-failed-at", string: Date().formatted(Date.ISO8601FormatStyle())),
        ]
        try await producer.send(
            KafkaOutgoingMessage(
                topic: Topic.deadLetterName(of: message.topic), key: message.key, value: message.value, headers: headers))
    }
}
