import ArgumentParser
import Foundation
import PlatformEvents
import PlatformHTTP
import PlatformKafka

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
        var copied = 0
        var lastMessage = ContinuousClock.now
        let started = ContinuousClock.now
        // Only the messages there when it started (see PartitionEnds). Until the broker has told where each
        // partition ends, what is read is held, not copied: a copy sent earlier would land inside the range.
        var ends: PartitionEnds?
        var held: [KafkaMessage] = []
        func copy(_ batch: [KafkaMessage]) async throws {
            var chosen: [KafkaMessage] = []
            for message in batch where copied + chosen.count < max {
                if ends != nil, ends?.contains(message) != true { continue }
                guard let stamp = message.timestampMilliseconds else {
                    if range == [nil, nil] { chosen.append(message) }
                    continue
                }
                if (range[0].map { stamp >= $0 } ?? true) && (range[1].map { stamp < $0 } ?? true) { chosen.append(message) }
            }
            try await producer.send(
                chosen.map {
                    KafkaOutgoingMessage(topic: target, key: $0.key, value: $0.value, headers: $0.headers.filter { !$0.name.hasPrefix("dlq-") })
                })
            copied += chosen.count
            FileHandle.standardError.write(Data("copied \(copied)\n".utf8))
        }
        while copied < max && ContinuousClock.now - lastMessage < .seconds(idleSeconds) {
            if ends == nil, consumer.assignedPartitionCount > 0 {
                let lags = consumer.lagByPartition()
                if lags.count == consumer.assignedPartitionCount { ends = PartitionEnds(lags) }
            }
            if ends != nil, !held.isEmpty {
                let batch = held
                held = []
                try await copy(batch)
                continue
            }
            if let ends, ends.allRead { break }
            if ends == nil, held.count >= max {
                // Enough held for --max: wait for the ends (or go idle, then copy what is held).
                try await Task.sleep(for: .milliseconds(100))
                continue
            }
            let batch = try await consumer.poll(maxMessages: Swift.min(max - copied, 500))
            // Joining the group takes a while (half the session timeout on Tansu): idle time counts once it holds partitions.
            if consumer.assignedPartitionCount == 0, ContinuousClock.now - started < .seconds(60) { lastMessage = .now }
            guard !batch.isEmpty else { continue }
            lastMessage = .now
            if ends == nil {
                held += batch
            } else {
                try await copy(batch)
            }
        }
        // Idle before the broker told the ends (no watermarks came): what was read is all there is.
        if !held.isEmpty { try await copy(held) }
        await consumer.close()
        try await producer.close()
        print("\(copied) message(s) copied from \(from) to \(target)")
    }
}
