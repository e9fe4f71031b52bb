import ArgumentParser
import Foundation
import Shared

/// Re-publishes messages from one topic to another: typically a dead-letter topic back to its source once the
/// cause is fixed, or a time range of a topic into another. Keys and headers go along (the `dlq-*` headers, the
/// dead-letter topic's own notes, stay behind). Consumers are idempotent, so re-feeding an event that was
/// applied before is harmless.
struct Refeed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refeed", abstract: "Copy messages from one topic to another (e.g. weather.forecasts.dlq to weather.forecasts).")

    @OptionGroup var broker: BrokerOptions
    @Option(help: "Topic to read from the beginning.") var from: String
    @Option(help: "Topic to publish to; defaults to the source topic of a .dlq topic.") var to: String?
    @Option(help: "Only messages at or after this time (ISO 8601 or timestamp:<epoch milliseconds>).") var since: String?
    @Option(help: "Only messages before this time (ISO 8601 or timestamp:<epoch milliseconds>).") var until: String?
    @Option(help: "Stop after this many messages.") var max: Int = 10_000
    @Option(help: "Stop after this many seconds without a new message.") var idleSeconds: Int = 5

    func run() async throws {
        guard let target = to ?? (from.hasSuffix(".dlq") ? String(from.dropLast(4)) : nil) else {
            throw ValidationError("--to is required when --from is not a .dlq topic")
        }
        let range = try [since, until].map { text -> Int64? in
            guard let text else { return nil }
            guard let milliseconds = TimeArgument.milliseconds(text) else {
                throw ValidationError("--since and --until take an ISO 8601 time or timestamp:<epoch milliseconds>")
            }
            return milliseconds
        }
        var configuration = KafkaConsumerConfiguration(
            broker: try broker.configuration(clientId: "platformctl"), groupId: "platformctl-refeed-\(UUID().uuidString)", topics: [from])
        configuration.startPosition = .beginning
        let consumer = try KafkaConsumer(configuration: configuration, logger: .init(label: "platformctl"))
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(broker: try broker.configuration(clientId: "platformctl")), logger: .init(label: "platformctl"))
        var copied = 0, read = 0
        var lastMessage = ContinuousClock.now
        let started = ContinuousClock.now
        // Only the messages there when it started: copies into the topic it reads (a range back into its own
        // topic, dead letters that fail again) must not be read and copied once more.
        var present: Int?
        var held: [KafkaMessage] = []
        func copy(_ batch: [KafkaMessage]) async throws {
            let chosen = batch.filter { message in
                guard let stamp = message.timestampMilliseconds else { return range == [nil, nil] }
                return (range[0].map { stamp >= $0 } ?? true) && (range[1].map { stamp < $0 } ?? true)
            }.prefix(max - copied)
            try await producer.send(chosen.map {
                KafkaOutgoingMessage(topic: target, key: $0.key, value: $0.value, headers: $0.headers.filter { !$0.name.hasPrefix("dlq-") })
            })
            copied += chosen.count
            FileHandle.standardError.write(Data("copied \(copied)\n".utf8))
        }
        while copied < max && ContinuousClock.now - lastMessage < .seconds(idleSeconds) {
            if present == nil, consumer.assignedPartitionCount > 0 {
                let lags = consumer.lagByPartition()
                if lags.count == consumer.assignedPartitionCount { present = read + Int(lags.reduce(0) { $0 + $1.lag }) }
            }
            var batch: [KafkaMessage]
            if present != nil, !held.isEmpty {
                // The end is known now: copy what was read before it was.
                batch = held
                held = []
            } else {
                if let present, read >= present { break }
                batch = try await consumer.poll(maxMessages: min(max - copied, present.map { Swift.max(1, $0 - read) } ?? 500))
                // Joining the group takes a while (half the session timeout on Tansu): idle time counts once it holds partitions.
                if consumer.assignedPartitionCount == 0, ContinuousClock.now - started < .seconds(60) { lastMessage = .now }
                guard !batch.isEmpty else { continue }
                read += batch.count
                lastMessage = .now
                // Nothing is copied before the end is known: a copy sent earlier would land inside the range still to read.
                if present == nil {
                    held += batch
                    continue
                }
            }
            try await copy(batch)
        }
        // Idle before the broker told the end (no statistics came): what was read is all there is.
        if !held.isEmpty { try await copy(held) }
        await consumer.close()
        try await producer.close()
        print("\(copied) message(s) copied from \(from) to \(target)")
    }
}
