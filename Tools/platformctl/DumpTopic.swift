import ArgumentParser
import Foundation
import Shared

/// Prints a topic's messages as JSON lines, under a group of its own so it never moves a service's offsets.
struct DumpTopic: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump", abstract: "Print a topic's messages as JSON lines (one per message).")

    @OptionGroup var broker: BrokerOptions
    @Option(help: "The topic to read.") var topic: String
    @Option(help: "Where to start: beginning, or timestamp:<epoch milliseconds>.") var from: String = "beginning"
    @Option(help: "Stop after this many messages.") var max: Int = 1_000
    @Option(help: "Stop after this many seconds without a new message.") var idleSeconds: Int = 5

    func run() async throws {
        let start: KafkaStartPosition
        if from == "beginning" {
            start = .beginning
        } else if from.hasPrefix("timestamp:"), let milliseconds = Int64(from.dropFirst("timestamp:".count)) {
            start = .timestamp(milliseconds: milliseconds)
        } else {
            throw ValidationError("--from must be beginning or timestamp:<epoch milliseconds>")
        }
        var configuration = KafkaConsumerConfiguration(
            broker: try broker.configuration(clientId: "platformctl"), groupId: "platformctl-dump-\(UUID().uuidString)", topics: [topic])
        configuration.startPosition = start
        let consumer = try KafkaConsumer(configuration: configuration, logger: .init(label: "platformctl"))
        var printed = 0
        var lastMessage = ContinuousClock.now
        while printed < max && ContinuousClock.now - lastMessage < .seconds(idleSeconds) {
            for message in try await consumer.poll(maxMessages: max - printed) {
                print(try DumpedMessage(message).jsonLine())
                printed += 1
                lastMessage = .now
            }
        }
        await consumer.close()
        FileHandle.standardError.write(Data("\(printed) message(s) from \(topic)\n".utf8))
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
