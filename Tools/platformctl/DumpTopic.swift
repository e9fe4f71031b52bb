import ArgumentParser
import Foundation
import PlatformHTTP
import PlatformKafka

/// Prints a topic's messages as JSON lines, under a group of its own so it never moves a service's offsets:
/// all of them, one key's, or a time range's. Progress goes to standard error on long reads.
struct DumpTopic: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump", abstract: "Print a topic's messages as JSON lines (one per message).")

    @OptionGroup var broker: BrokerOptions
    @Option(help: "The topic to read.") var topic: String
    @Option(help: "Where to start: beginning, an ISO 8601 time, or timestamp:<epoch milliseconds>.") var from: String = "beginning"
    @Option(help: "Only messages before this time (ISO 8601 or timestamp:<epoch milliseconds>).") var until: String?
    @Option(help: "Only messages with this key.") var key: String?
    @Option(help: "Stop after printing this many messages.") var max: Int = 1_000
    @Option(help: "Stop after this many seconds without a new message.") var idleSeconds: Int = 5

    func run() async throws {
        let start: KafkaStartPosition
        if from == "beginning" {
            start = .beginning
        } else if let milliseconds = TimeArgument.milliseconds(from) {
            start = .timestamp(milliseconds: milliseconds)
        } else {
            throw ValidationError("--from must be beginning, an ISO 8601 time or timestamp:<epoch milliseconds>")
        }
        let end = try until.map { text -> Int64 in
            guard let milliseconds = TimeArgument.milliseconds(text) else {
                throw ValidationError("--until must be an ISO 8601 time or timestamp:<epoch milliseconds>")
            }
            return milliseconds
        }
        var configuration = KafkaConsumerConfiguration(
            broker: try broker.configuration(clientId: "platformctl"), groupId: "platformctl-dump-\(UUID().uuidString)", topics: [topic])
        configuration.startPosition = start
        let consumer = try KafkaConsumer(configuration: configuration, logger: .init(label: "platformctl"))
        var printed = 0, read = 0, skipped = 0
        var lastMessage = ContinuousClock.now, lastReport = ContinuousClock.now
        let started = ContinuousClock.now
        while printed < max && ContinuousClock.now - lastMessage < .seconds(idleSeconds) {
            let batch = try await consumer.poll(maxMessages: 5_000)
            // Joining the group takes a while (half the session timeout on Tansu): idle time counts once it holds partitions.
            if consumer.assignedPartitionCount == 0, ContinuousClock.now - started < .seconds(60) { lastMessage = .now }
            // With --from a time, the messages before it are passed over inside the poll: reading them is progress
            // too, or a long topic would look idle before its range begins.
            if consumer.skippedBeforeStartSoFar > skipped {
                skipped = consumer.skippedBeforeStartSoFar
                lastMessage = .now
            }
            for message in batch where printed < max {
                read += 1
                lastMessage = .now
                if let key, message.keyString != key { continue }
                if let end, (message.timestampMilliseconds ?? end) >= end { continue }
                print(try DumpedMessage(message).jsonLine())
                printed += 1
            }
            if ContinuousClock.now - lastReport > .seconds(2) {
                FileHandle.standardError.write(Data("read \(read + skipped) message(s), printed \(printed)\n".utf8))
                lastReport = .now
            }
        }
        await consumer.close()
        FileHandle.standardError.write(Data("\(printed) message(s) from \(topic) (\(read + skipped) read)\n".utf8))
    }
}

/// One message as printed by `dump`.
struct DumpedMessage: Encodable {
    var topic: String
    var partition: Int32
    var offset: Int64
    var timestamp: Int64?
    var key: String?
    var headers: [String: String]
    var value: String

    init(_ message: KafkaMessage) {
        topic = message.topic
        partition = message.partition
        offset = message.offset
        timestamp = message.timestampMilliseconds
        key = message.keyString
        headers = Dictionary(message.headers.map { ($0.name, $0.stringValue) }) { $1 }
        value = String(decoding: message.value, as: UTF8.self)
    }

    func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
