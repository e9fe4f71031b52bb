import Foundation
import Logging
import PlatformCore
import PlatformHTTP
import PlatformKafka

/// Producer and consumer throughput of the platform's client (PlatformKafka) next to `rdkafka_performance`, with the same settings
/// (idempotent, acks=all, lz4, linger 5 ms) on the same broker, each on a fresh topic of the same shape.
struct KafkaBench {
    let brokers: String
    let count: Int
    let size: Int
    let referenceBinary: String
    let partitions = 3

    struct Topics {
        var swift: String
        var reference: String
    }

    func produce() async throws -> (swift: Double, reference: Double, topics: Topics) {
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let topics = Topics(swift: "bench.swift.\(suffix)", reference: "bench.ref.\(suffix)")
        let admin = try KafkaAdmin(broker: KafkaBrokerConfiguration(bootstrapServers: brokers, clientId: "bench"))
        try await admin.createTopics([
            KafkaTopicSpec(name: topics.swift, partitions: partitions), KafkaTopicSpec(name: topics.reference, partitions: partitions),
        ])
        let swift = try await produceWithPlatform(topic: topics.swift)
        let reference = try runReference([
            // -D: copy each payload into librdkafka, as the platform's producer must (Swift arrays cannot lend memory
            // past a call), so both pay the same memcpy.
            "-P", "-D", "-t", topics.reference, "-b", brokers, "-s", "\(size)", "-c", "\(count)", "-a", "-1", "-z", "lz4",
            "-X", "linger.ms=5", "-X", "enable.idempotence=true", "-X", "queue.buffering.max.messages=1000000",
        ])
        return (swift, reference, topics)
    }

    func consume(topics: Topics) async throws -> (swift: Double, reference: Double) {
        let swift = try await consumeWithPlatform(topic: topics.swift)
        let reference = try runReference([
            "-G", "bench-ref-\(UUID().uuidString.prefix(8))", "-t", topics.reference, "-b", brokers, "-c", "\(count)",
            "-X", "session.timeout.ms=6000", "-X", "auto.offset.reset=earliest",
        ])
        return (swift, reference)
    }

    /// Sends windows of 20,000 from four concurrent tasks, so the client always has messages in flight, as the
    /// reference client has (a single awaited window would drain librdkafka's queue between windows).
    private func produceWithPlatform(topic: String) async throws -> Double {
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(broker: KafkaBrokerConfiguration(bootstrapServers: brokers, clientId: "bench")),
            logger: Logger(label: "bench"))
        let payload = [UInt8](repeating: UInt8(ascii: "x"), count: size)
        let window = 20_000
        let windows = stride(from: 0, to: count, by: window).map { min(window, count - $0) }
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func sendNext() {
                let size = windows[next]
                next += 1
                group.addTask {
                    try await producer.send((0..<size).map { _ in KafkaOutgoingMessage(topic: topic, key: nil, value: payload) })
                }
            }
            while next < min(4, windows.count) { sendNext() }
            while try await group.next() != nil {
                if next < windows.count { sendNext() }
            }
        }
        let elapsed = ContinuousClock.now - start
        try await producer.close()
        return Double(count) / elapsed.seconds
    }

    /// Timed from the first message to the last, like the reference client, so the group join is not counted.
    private func consumeWithPlatform(topic: String) async throws -> Double {
        var configuration = KafkaConsumerConfiguration(
            broker: KafkaBrokerConfiguration(bootstrapServers: brokers, clientId: "bench"), groupId: "bench-\(UUID())", topics: [topic])
        configuration.maxBatchSize = 1_000
        let consumer = try KafkaConsumer(configuration: configuration, logger: Logger(label: "bench"))
        var received = 0
        var start: ContinuousClock.Instant?
        let deadline = ContinuousClock.now + .seconds(120)
        while received < count && ContinuousClock.now < deadline {
            let batch = try await consumer.poll()
            if start == nil && !batch.isEmpty { start = .now }
            for message in batch { consumer.storeOffset(of: message) }
            received += batch.count
        }
        let elapsed = ContinuousClock.now - (start ?? .now)
        await consumer.close()
        guard received >= count else { throw BenchError("The platform's consumer received \(received) of \(count) messages") }
        return Double(received) / elapsed.seconds
    }

    /// Runs `rdkafka_performance` and reads the msgs/s of its final summary line.
    private func runReference(_ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: referenceBinary)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let line = output.split(separator: "\n").last(where: { $0.contains("msgs/s") && $0.contains("\(count) messages") }),
            let rate = line.split(separator: " ").firstIndex(of: "msgs/s").flatMap({ Double(line.split(separator: " ")[$0 - 1]) })
        else {
            throw BenchError("could not read rdkafka_performance's result from:\n\(output.suffix(1_000))")
        }
        return rate
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
