import CRdKafka
import PlatformCore

/// A consumer group's committed offsets, set from outside the group (`platformctl rewind`): the
/// group's membership as the broker reports it, a topic's partition count, and a commit of chosen offsets
/// under the group's id without joining it (no subscribe, so no rebalance). A broker refuses such a commit
/// while the group has live members (their generation owns the offsets), which is the second guard after the
/// membership check: Tansu reports every group as `Empty`, so against it the broker's refusal is the guard.
public final class KafkaGroupOffsets: Sendable {
    private let handle: RdKafkaHandle
    private let executor: BlockingExecutor
    public let group: String

    public init(broker: KafkaBrokerConfiguration, group: String) throws {
        self.group = group
        handle = try RdKafkaHandle(
            type: RD_KAFKA_CONSUMER,
            properties: broker.properties.merging(broker.extraProperties) { $1 }.merging([
                "group.id": group, "enable.auto.commit": "false", "enable.auto.offset.store": "false",
            ]) { $1 })
        executor = BlockingExecutor(label: "kafka.group-offsets.\(group)")
    }

    deinit {
        rd_kafka_consumer_close(handle.pointer)
        handle.destroy()
    }

    /// The group's state and member count as the broker describes it (`Empty`, `Stable`, `Dead`...).
    public func membership(timeoutMilliseconds: Int32 = 5_000) async throws -> (state: String, members: Int) {
        let (handle, group) = (self.handle, self.group)
        return try await executor.run {
            var list: UnsafePointer<rd_kafka_group_list>?
            let code = rd_kafka_list_groups(handle.pointer, group, &list, timeoutMilliseconds)
            guard code == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { throw KafkaError(code: code, context: "list groups failed") }
            defer { rd_kafka_group_list_destroy(list) }
            for index in 0..<Int(list.pointee.group_cnt) {
                let info = list.pointee.groups[index]
                guard String(cString: info.group) == group else { continue }
                // An error for the group (not authorised, no coordinator) says nothing about its members.
                guard info.err == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError(code: info.err, context: "describing group \(group) failed") }
                return (info.state.map { String(cString: $0) } ?? "unknown", Int(info.member_cnt))
            }
            return ("Dead", 0)
        }
    }

    /// The number of partitions of `topic`; throws when the broker does not know it.
    public func partitionCount(of topic: String, timeoutMilliseconds: Int32 = 5_000) async throws -> Int {
        let handle = self.handle
        return try await executor.run { try handle.partitionCount(of: topic, timeoutMilliseconds: timeoutMilliseconds) }
    }

    /// One partition's new committed offset.
    public typealias Position = LogPosition

    /// Commits `positions` for the group, synchronously; throws naming the first partition the broker refused.
    public func commit(_ positions: [Position]) async throws {
        guard !positions.isEmpty else { return }
        let handle = self.handle
        try await executor.run {
            guard let list = rd_kafka_topic_partition_list_new(Int32(positions.count)) else {
                throw KafkaError("rd_kafka_topic_partition_list_new failed")
            }
            defer { rd_kafka_topic_partition_list_destroy(list) }
            for position in positions {
                rd_kafka_topic_partition_list_add(list, position.topic, position.partition)?.pointee.offset = position.offset
            }
            let code = rd_kafka_commit(handle.pointer, list, 0)
            guard code == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError(code: code, context: "commit refused") }
            for index in 0..<Int(list.pointee.cnt) {
                let element = list.pointee.elems[index]
                guard element.err == RD_KAFKA_RESP_ERR_NO_ERROR else {
                    throw KafkaError(code: element.err, context: "commit of \(String(cString: element.topic))[\(element.partition)] refused")
                }
            }
        }
    }
}
