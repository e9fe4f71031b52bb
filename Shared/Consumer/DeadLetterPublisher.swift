import Foundation

/// Sends an event that cannot be handled to `<topic>.dlq`, unchanged, with headers saying why and where
/// it came from, so an operator can inspect it and re-feed it with `platformctl` once the cause is fixed.
public struct DeadLetterPublisher: Sendable {
    let producer: KafkaProducer
    let service: String

    public init(producer: KafkaProducer, service: String) {
        self.producer = producer
        self.service = service
    }

    public func publish(_ message: KafkaMessage, error: any Error, attempts: Int) async throws {
        var headers = message.headers.filter { !$0.name.hasPrefix("dlq-") }
        headers += [
            KafkaHeader(name: "dlq-error", string: String(describing: error)),
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
