import CRdKafka
import Logging
import Synchronization

/// A consumer-group member. Read it as an `AsyncSequence` (`for try await message in consumer.messages`), handle
/// each message, then call `storeOffset(of:)`: only stored offsets are committed, so a message whose handler did
/// not finish is delivered again after a crash or a rebalance. Polling runs on a dedicated queue, one batch per
/// trip, and only when the reader asks for more, so rebalances happen between handlers, never during one.
public final class KafkaConsumer: Sendable {
    public let configuration: KafkaConsumerConfiguration
    private let handle: RdKafkaHandle
    private let context: RebalanceContext
    private let executor: BlockingExecutor
    private let logger: Logger
    private let isClosed = Atomic<Bool>(false)

    public init(configuration: KafkaConsumerConfiguration, logger: Logger) throws {
        guard !configuration.topics.isEmpty else { throw KafkaError("a consumer needs at least one topic") }
        self.configuration = configuration
        self.logger = logger
        let context = RebalanceContext(startPosition: configuration.startPosition)
        self.context = context
        executor = BlockingExecutor(label: "kafka.consumer.\(configuration.groupId)")
        handle = try RdKafkaHandle(type: RD_KAFKA_CONSUMER, properties: configuration.properties) { conf in
            rd_kafka_conf_set_rebalance_cb(conf, rebalanceCallback)
            rd_kafka_conf_set_opaque(conf, Unmanaged.passUnretained(context).toOpaque())
        }
        rd_kafka_poll_set_consumer(handle.pointer)
        let list = rd_kafka_topic_partition_list_new(Int32(configuration.topics.count))
        defer { rd_kafka_topic_partition_list_destroy(list) }
        for topic in configuration.topics {
            rd_kafka_topic_partition_list_add(list, topic, RD_KAFKA_PARTITION_UA)
        }
        let code = rd_kafka_subscribe(handle.pointer, list)
        guard code == RD_KAFKA_RESP_ERR_NO_ERROR else {
            handle.destroy()
            throw KafkaError(code: code, context: "subscribe to \(configuration.topics) failed")
        }
    }

    deinit {
        if !isClosed.load(ordering: .acquiring) {
            rd_kafka_consumer_close(handle.pointer)
            handle.destroy()
        }
    }

    /// The messages of the subscribed topics, in partition order. Ends when the consumer is closed or the task cancelled.
    public var messages: KafkaMessageSequence { KafkaMessageSequence(consumer: self) }

    /// Fetches up to `maxMessages`, waiting at most `timeoutMilliseconds` for the first one.
    public func poll(maxMessages: Int? = nil, timeoutMilliseconds: Int32 = 100) async throws -> [KafkaMessage] {
        guard !isClosed.load(ordering: .acquiring) else { return [] }
        let limit = maxMessages ?? configuration.maxBatchSize
        let (handle, logger) = (self.handle, self.logger)
        let batch = try await executor.run { () -> [KafkaMessage] in
            var result: [KafkaMessage] = []
            var timeout = timeoutMilliseconds
            while result.count < limit, let raw = rd_kafka_consumer_poll(handle.pointer, timeout) {
                timeout = 0
                defer { rd_kafka_message_destroy(raw) }
                if raw.pointee.err != RD_KAFKA_RESP_ERR_NO_ERROR {
                    let error = KafkaError(code: raw.pointee.err, context: "consumer error")
                    logger.warning("Kafka consumer error", metadata: ["error": "\(String(reflecting: error))"])
                    continue
                }
                result.append(KafkaMessage(copying: raw))
            }
            return result
        }
        return try skipOlderThanStartTimestamp(batch)
    }

    /// For a replay from a time: messages older than it are passed over and their offsets stored.
    private func skipOlderThanStartTimestamp(_ batch: [KafkaMessage]) throws -> [KafkaMessage] {
        guard case .timestamp(let start) = configuration.startPosition else { return batch }
        var kept: [KafkaMessage] = []
        for message in batch {
            if let time = message.timestampMilliseconds, time < start {
                storeOffset(of: message)
            } else {
                kept.append(message)
            }
        }
        return kept
    }

    /// Marks `message` as done: its offset + 1 is committed with the next background commit. A non-blocking call.
    /// When the partition was revoked meanwhile, the store is refused and the new owner sees the message again.
    public func storeOffset(of message: KafkaMessage) {
        guard !isClosed.load(ordering: .acquiring) else { return }
        let list = rd_kafka_topic_partition_list_new(1)
        defer { rd_kafka_topic_partition_list_destroy(list) }
        let element = rd_kafka_topic_partition_list_add(list, message.topic, message.partition)
        element?.pointee.offset = message.offset + 1
        let code = rd_kafka_offsets_store(handle.pointer, list)
        if code != RD_KAFKA_RESP_ERR_NO_ERROR {
            logger.debug(
                "offset not stored (partition no longer assigned?)",
                metadata: ["topic": "\(message.topic)", "partition": "\(message.partition)", "offset": "\(message.offset)"]
            )
        }
    }

    /// Messages behind the high watermark on the partitions assigned to this member, from the watermarks
    /// librdkafka caches from fetch responses (Tansu's ListOffsets cannot be trusted for this).
    public func lag() -> Int64 {
        lagByPartition().reduce(0) { $0 + $1.lag }
    }

    /// Lag of one assigned partition.
    public struct PartitionLag: Sendable, Equatable {
        public var topic: String
        public var partition: Int32
        public var lag: Int64
    }

    /// `lag()` per assigned partition whose high watermark is known. Local calls only: no broker round trip.
    public func lagByPartition() -> [PartitionLag] {
        guard !isClosed.load(ordering: .acquiring) else { return [] }
        var result: [PartitionLag] = []
        for partition in context.assignedPartitions {
            var low: Int64 = 0
            var high: Int64 = 0
            guard rd_kafka_get_watermark_offsets(handle.pointer, partition.topic, partition.partition, &low, &high)
                == RD_KAFKA_RESP_ERR_NO_ERROR, high >= 0
            else { continue }
            let list = rd_kafka_topic_partition_list_new(1)
            defer { rd_kafka_topic_partition_list_destroy(list) }
            rd_kafka_topic_partition_list_add(list, partition.topic, partition.partition)
            rd_kafka_position(handle.pointer, list)
            let position = list?.pointee.elems.pointee.offset ?? -1
            result.append(PartitionLag(topic: partition.topic, partition: partition.partition, lag: max(0, high - (position >= 0 ? position : low))))
        }
        return result
    }

    /// Number of partitions this member holds right now.
    public var assignedPartitionCount: Int { context.assignedPartitions.count }

    /// Leaves the group: commits stored offsets, revokes partitions, and releases the client. Safe to call twice.
    public func close() async {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let (handle, context) = (self.handle, self.context)
        _ = try? await executor.run {
            rd_kafka_consumer_close(handle.pointer)
            handle.destroy()
            _ = context  // keeps the rebalance opaque alive until the client is gone
        }
    }
}

/// The pull-based message stream of a `KafkaConsumer`.
public struct KafkaMessageSequence: AsyncSequence, Sendable {
    public typealias Element = KafkaMessage
    let consumer: KafkaConsumer

    public struct AsyncIterator: AsyncIteratorProtocol {
        let consumer: KafkaConsumer
        var buffer: [KafkaMessage] = []
        var position = 0

        public mutating func next() async throws -> KafkaMessage? {
            while position >= buffer.count {
                if Task.isCancelled || consumer.isClosedForReading { return nil }
                buffer = try await consumer.poll()
                position = 0
            }
            defer { position += 1 }
            return buffer[position]
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(consumer: consumer) }
}

extension KafkaConsumer {
    var isClosedForReading: Bool { isClosed.load(ordering: .acquiring) }
}
