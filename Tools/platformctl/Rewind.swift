import ArgumentParser
import Foundation
import PlatformHTTP
import PlatformKafka

/// Moves a service's consumer group back, to the beginning of its topics or to a time, so that the service
/// applies those events again when it starts (its handlers are idempotent, so only what its tables no longer
/// hold changes anything). The service must be stopped: a group with members is refused.
///
/// Tansu cannot seek by time (its ListOffsets answers wrongly, ARCHITECTURE.md), so a time is found by reading
/// each partition from the beginning under a throw-away group and taking the first offset at or after it.
struct Rewind: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewind",
        abstract: "Move a consumer group's offsets to the beginning or to a time (stop the service first).")

    @OptionGroup var broker: BrokerOptions
    @Option(help: "The consumer group (a service's KAFKA_GROUP_ID, by default its name).") var group: String
    @Option(help: "A topic the group reads (repeat for several).") var topic: [String]
    @Option(help: "beginning, an ISO 8601 time, or timestamp:<epoch milliseconds>.") var to: String
    @Option(help: "Give up (changing nothing) when reading the topics brings no message for this many seconds.") var idleSeconds: Int = 10

    func run() async throws {
        guard !topic.isEmpty else { throw ValidationError("name at least one --topic") }
        let time: Int64?
        if to == "beginning" {
            time = nil
        } else if let milliseconds = TimeArgument.milliseconds(to) {
            time = milliseconds
        } else {
            throw ValidationError("--to must be beginning, an ISO 8601 time or timestamp:<epoch milliseconds>")
        }
        let brokerConfiguration = try broker.configuration(clientId: "platformctl")
        let offsets = try KafkaGroupOffsets(broker: brokerConfiguration, group: group)
        let membership = try await offsets.membership()
        guard membership.members == 0 else {
            throw ValidationError("group \(group) has \(membership.members) member(s) (\(membership.state)): stop the service first")
        }
        var partitions: [String: Int] = [:]
        for name in topic { partitions[name] = try await offsets.partitionCount(of: name) }
        let positions: [KafkaGroupOffsets.Position]
        if let time {
            positions = try await OffsetFinder(broker: brokerConfiguration, partitions: partitions, idleSeconds: idleSeconds)
                .firstOffsets(atOrAfter: time)
        } else {
            // Offset 0: below the log's start after retention, the group's reset policy (earliest) takes it to the start.
            positions = partitions.sorted { $0.key < $1.key }.flatMap { name, count in
                (0..<count).map { KafkaGroupOffsets.Position(topic: name, partition: Int32($0), offset: 0) }
            }
        }
        do {
            try await offsets.commit(positions)
        } catch {
            throw ValidationError("the broker refused the new offsets for \(group) (are its members still running?): \(error)")
        }
        for position in positions {
            print("\(group) \(position.topic)[\(position.partition)] -> \(position.offset)")
        }
        FileHandle.standardError.write(Data("rewound \(group) on \(positions.count) partition(s) to \(to)\n".utf8))
    }
}

/// Reads partitions from the beginning to find, in each, the first offset whose message is at or after a time.
struct OffsetFinder {
    let broker: KafkaBrokerConfiguration
    let partitions: [String: Int]
    let idleSeconds: Int

    func firstOffsets(atOrAfter time: Int64) async throws -> [KafkaGroupOffsets.Position] {
        var configuration = KafkaConsumerConfiguration(
            broker: broker, groupId: "platformctl-rewind-\(UUID().uuidString)", topics: partitions.keys.sorted())
        configuration.startPosition = .beginning
        let consumer = try KafkaConsumer(configuration: configuration, logger: .init(label: "platformctl"))
        let total = partitions.values.reduce(0, +)
        var found: [String: Int64] = [:]
        var next: [String: Int64] = [:]
        var scanned = 0
        var lastMessage = ContinuousClock.now
        var lastReport = ContinuousClock.now
        let started = ContinuousClock.now
        func key(_ topic: String, _ partition: Int32) -> String { "\(topic)\u{0}\(partition)" }
        while ContinuousClock.now - lastMessage < .seconds(idleSeconds) {
            let batch = try await consumer.poll(maxMessages: 5_000)
            for message in batch {
                let id = key(message.topic, message.partition)
                next[id] = message.offset + 1
                if found[id] == nil, let stamp = message.timestampMilliseconds, stamp >= time { found[id] = message.offset }
            }
            scanned += batch.count
            // Idle time counts once the throw-away group holds partitions (joining takes a while on Tansu).
            if !batch.isEmpty || (consumer.assignedPartitionCount == 0 && ContinuousClock.now - started < .seconds(60)) { lastMessage = .now }
            let lags = consumer.lagByPartition()
            if lags.count == total, lags.allSatisfy({ $0.lag == 0 }) { break }
            if ContinuousClock.now - lastReport > .seconds(2) {
                FileHandle.standardError.write(Data("read \(scanned) message(s); \(found.count) of \(total) partition(s) placed\n".utf8))
                lastReport = .now
            }
        }
        let unread = consumer.lagByPartition()
        await consumer.close()
        guard unread.count == total, unread.allSatisfy({ $0.lag == 0 }) else {
            throw ValidationError(
                "could not read every partition to its end within \(idleSeconds) s of silence (\(unread.count) of \(total) known); "
                    + "nothing was changed: try again with a larger --idle-seconds")
        }
        // A partition with nothing at or after the time goes to its end: nothing of it is read again.
        return partitions.sorted { $0.key < $1.key }.flatMap { name, count in
            (0..<count).map { partition in
                let id = key(name, Int32(partition))
                return KafkaGroupOffsets.Position(topic: name, partition: Int32(partition), offset: found[id] ?? next[id] ?? 0)
            }
        }
    }
}
