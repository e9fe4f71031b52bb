import CRdKafka
import Logging
import Metrics
import Synchronization

/// A consumer-group member. Read it as an `AsyncSequence` (`for try await message in consumer.messages`), handle
/// each message, then call `storeOffset(of:)`: only stored offsets are committed, so a message whose handler did
/// not finish is delivered again after a crash or a rebalance. Polling runs on a dedicated queue, one batch per
/// trip, and only when the reader asks for more. A reader that polls again while it still applies what it
/// polled before holds those partitions in `partitionsInHand`: a rebalance then waits for them before it
/// commits and revokes, and what the poll fetched of a revoked partition before the revoke is dropped (it is
/// read again from the committed offset).
///
/// It heals one librdkafka fault by itself: after a broker lost a subscribed topic (a memory broker's restart,
/// a topic deleted and created again), librdkafka can spin in its join state machine for good, asking for
/// metadata it then ignores, and never reads again (the fault suite's broker-restart scenarios provoke it).
/// A consumer whose topic was reported missing and that holds no partitions `missingTopicRebuildMilliseconds`
/// later is replaced by a fresh client, which joins normally.
///
/// `poll` is called by one reader, one at a time (the event consumer's loop); `storeOffset` by it or by the tasks
/// applying what it polled. The client swap happens inside `poll` and only while the member holds no partition,
/// which a revoke reaches only after the batches in hand were finished: a store never goes to a client being swapped. `lagByPartition` may be called from
/// other tasks too; it holds the client against the swap's destroy.
public final class KafkaConsumer: Sendable {
    public let configuration: KafkaConsumerConfiguration
    private let client: Mutex<ConsumerClient>
    private let executor: BlockingExecutor
    private let logger: Logger
    private let isClosed = Atomic<Bool>(false)
    /// Held by `lagByPartition` while it uses a client and by a rebuild while it destroys the old one: lag is
    /// read by other tasks than the reader (a rebuild's progress loop, platformctl), so without it a rebuild
    /// could free the client under a watermark read.
    private let clientInUse = Mutex<Void>(())
    /// When a subscribed topic was last reported missing while no partition was assigned; nil when it is not.
    private let topicMissingSince = Mutex<ContinuousClock.Instant?>(nil)
    /// The same for readiness, kept across a rebuild (the fresh client has not seen the topic either) and cleared
    /// only once a partition is held: readiness does not read ready while the new member joins.
    private let reportedMissingSince = Mutex<ContinuousClock.Instant?>(nil)
    /// Made at start, so the series exist (at 0) before the first rebuild: alerts and dashboards name them.
    private let rebuilds: [RebuildReason: Counter]
    /// Seconds the member has held no partition (0 while it holds one), for alerts on a stuck member.
    private let unassignedSeconds: Gauge
    /// Since when the member (this client or the ones before it) has held no partition; nil while it holds one.
    private let heldNothingSince = Mutex<ContinuousClock.Instant?>(.now)
    /// Since when the current client has held no partition, and how long it may before it rejoins.
    private let idle: Mutex<IdleWatch>
    private let rebuildCount = Atomic<Int>(0)
    /// Subscribed topics with fewer partitions than `expectedPartitions`.
    private let partitionCounts: PartitionCountWatch
    private let skippedCount = Atomic<Int>(0)
    /// Batches the reader is applying; kept across a rebuild (the fresh client's revokes wait for them too).
    public let partitionsInHand = PartitionsInHand()

    public init(configuration: KafkaConsumerConfiguration, logger: Logger) throws {
        guard !configuration.topics.isEmpty else { throw KafkaError("a consumer needs at least one topic") }
        self.configuration = configuration
        self.logger = logger
        executor = BlockingExecutor(label: "kafka.consumer.\(configuration.groupId)")
        client = Mutex(try ConsumerClient(configuration: configuration, logger: logger, inHand: partitionsInHand))
        idle = Mutex(IdleWatch(limit: .milliseconds(configuration.idleRejoinMilliseconds)))
        partitionCounts = PartitionCountWatch(topics: configuration.topics, expected: configuration.expectedPartitions, logger: logger)
        rebuilds = Dictionary(
            uniqueKeysWithValues: RebuildReason.allCases.map {
                ($0, Counter(label: "kafka_consumer_rebuilds_total", dimensions: [("group", configuration.groupId), ("reason", $0.rawValue)]))
            })
        unassignedSeconds = Gauge(label: "kafka_consumer_unassigned_seconds", dimensions: [("group", configuration.groupId)])
    }

    /// Why a client was replaced by a fresh member of the group.
    enum RebuildReason: String, CaseIterable, Sendable {
        /// A subscribed topic was reported missing and no partition was assigned.
        case missingTopic = "missing_topic"
        /// No partition for the idle limit although the topics have partitions.
        case noPartitions = "no_partitions"

        var explanation: String {
            switch self {
            case .missingTopic: "a subscribed topic was missing"
            case .noPartitions: "its topics have partitions"
            }
        }
    }

    struct IdleWatch {
        var since: ContinuousClock.Instant?
        var limit: Duration
    }

    deinit {
        if !isClosed.load(ordering: .acquiring) {
            client.withLock { $0 }.close()
        }
    }

    private var current: ConsumerClient { client.withLock { $0 } }

    /// How many messages a replay from a time has passed over so far (older than its start): a poll that
    /// returns nothing may still have read thousands of them.
    public var skippedBeforeStartSoFar: Int { skippedCount.load(ordering: .acquiring) }

    /// Since when a subscribed topic has been missing: reported by a fetch while no partition was assigned, or
    /// found missing by the periodic look beside topics whose partitions it holds; nil when none is. Topics are
    /// never created by a client (`allow.auto.create.topics=false`): readiness reports this.
    public var missingTopicSince: ContinuousClock.Instant? {
        [reportedMissingSince.withLock { $0 }, partitionCounts.missingSince].compactMap { $0 }.min()
    }

    /// Since when the member has held no partition although its topics exist (across rejoins); nil while it holds
    /// one, or while a subscribed topic is missing (readiness reports that instead).
    public var unassignedSince: ContinuousClock.Instant? {
        guard missingTopicSince == nil else { return nil }
        return heldNothingSince.withLock { $0 }
    }

    /// How often the client was replaced (see the type's comment).
    public var rebuildCountSoFar: Int { rebuildCount.load(ordering: .acquiring) }

    /// The messages of the subscribed topics, in partition order. Ends when the consumer is closed or the task cancelled.
    public var messages: KafkaMessageSequence { KafkaMessageSequence(consumer: self) }

    /// Whether `close` was called: the message stream ends then.
    var isClosedForReading: Bool { isClosed.load(ordering: .acquiring) }

    /// Fetches up to `maxMessages`, waiting at most `timeoutMilliseconds` for the first one.
    public func poll(maxMessages: Int? = nil, timeoutMilliseconds: Int32 = 100) async throws -> [KafkaMessage] {
        guard !isClosed.load(ordering: .acquiring) else { return [] }
        let limit = maxMessages ?? configuration.maxBatchSize
        let batch = try await executor.run { () -> [KafkaMessage] in
            // Checked again on the executor: a `close` queued between the check above and this job has destroyed
            // the client by now (the executor is serial, and `close` sets the flag before it queues).
            guard !self.isClosed.load(ordering: .acquiring) else { return [] }
            self.rebuildIfStuck()
            self.partitionCounts.lookIfDue(using: self.current.handle)
            let client = self.current
            let (handle, context, logger) = (client.handle, client.context, self.logger)
            var result: [KafkaMessage] = []
            var timeout = timeoutMilliseconds
            while result.count < limit {
                let message = rd_kafka_consumer_poll(handle.pointer, timeout)
                // A revoke served inside that call makes what was collected of its partitions stale.
                let revoked = context.takeRevoked()
                if !revoked.isEmpty {
                    result.removeAll { revoked.contains(RebalanceContext.PartitionID(topic: $0.topic, partition: $0.partition)) }
                }
                guard let raw = message else { break }
                timeout = 0
                defer { rd_kafka_message_destroy(raw) }
                if raw.pointee.err != RD_KAFKA_RESP_ERR_NO_ERROR {
                    let error = KafkaError(code: raw.pointee.err, context: "consumer error")
                    // The message's own text names the topic and partition (the code alone does not).
                    let detail = rd_kafka_message_errstr(raw).map { String(cString: $0) } ?? ""
                    logger.warning("Kafka consumer error", metadata: ["error": "\(String(reflecting: error))", "detail": "\(detail)"])
                    if raw.pointee.err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART {
                        self.markTopicMissing(since: .now)
                    }
                    continue
                }
                result.append(KafkaMessage(copying: raw))
            }
            return result
        }
        return try skipOlderThanStartTimestamp(batch)
    }

    /// Runs on the executor, before a poll. Replaces the client (a new member of the group) when it holds no
    /// partition and either a subscribed topic was reported missing for `missingTopicRebuildMilliseconds`, or it
    /// has held none for `idleRejoinMilliseconds` although its topics have partitions: a member that joined while
    /// the topics did not exist (a broker restarted before they were made again) is assigned nothing, and
    /// librdkafka does not rejoin when they appear. An idle member that finds the
    /// topics still missing records them as missing (readiness reports it); one in a group with more members
    /// than partitions rejoins with a doubling wait, up to ten minutes, so it does not keep the group rebalancing.
    private func rebuildIfStuck() {
        let old = current
        let now = ContinuousClock.now
        let heldNothing = heldNothingSince.withLock { since -> ContinuousClock.Instant? in
            since = old.context.assignedPartitions.isEmpty ? (since ?? now) : nil
            return since
        }
        unassignedSeconds.record(heldNothing.map { (now - $0).components.seconds } ?? 0)
        if heldNothing == nil {
            topicMissingSince.withLock { $0 = nil }
            reportedMissingSince.withLock { $0 = nil }
            idle.withLock { $0 = IdleWatch(limit: .milliseconds(configuration.idleRejoinMilliseconds)) }
            return
        }
        if let since = topicMissingSince.withLock({ $0 }), now - since >= .milliseconds(configuration.missingTopicRebuildMilliseconds) {
            rebuild(replacing: old, reason: .missingTopic, waited: now - since)
            return
        }
        let watch = idle.withLock { watch -> IdleWatch in
            watch.since = watch.since ?? now
            return watch
        }
        guard let since = watch.since, now - since >= watch.limit else { return }
        guard subscribedTopicsHavePartitions(old) else {
            markTopicMissing(since: now)
            idle.withLock { $0.since = now }
            return
        }
        // The topics exist: from here on it is a member without partitions, not a missing topic.
        reportedMissingSince.withLock { $0 = nil }
        rebuild(replacing: old, reason: .noPartitions, waited: now - since)
        idle.withLock { $0 = IdleWatch(since: .now, limit: min(watch.limit * 2, .seconds(600))) }
    }

    /// A subscribed topic is missing: for the rebuild (this client's wait) and for readiness (kept across a rebuild).
    private func markTopicMissing(since now: ContinuousClock.Instant) {
        topicMissingSince.withLock { $0 = $0 ?? now }
        reportedMissingSince.withLock { $0 = $0 ?? now }
    }

    private func rebuild(replacing old: ConsumerClient, reason: RebuildReason, waited: Duration) {
        let fresh: ConsumerClient
        do {
            fresh = try ConsumerClient(
                configuration: configuration, logger: logger, inHand: partitionsInHand, rewound: old.context.rewoundPartitions)
        } catch {
            logger.error("could not rebuild the Kafka consumer", metadata: ["error": "\(error)"])
            return
        }
        client.withLock { $0 = fresh }
        topicMissingSince.withLock { $0 = nil }
        // Released without leaving the group: the group drops the old member when its session times out.
        clientInUse.withLock { _ in old.abandon() }
        rebuilds[reason]?.increment()
        rebuildCount.add(1, ordering: .releasing)
        logger.warning(
            "Kafka consumer rebuilt: it held no partition (\(reason.explanation)); it joins again as a new member",
            metadata: ["topics": "\(configuration.topics)", "waitedSeconds": "\(waited.components.seconds)", "reason": "\(reason.rawValue)"])
    }

    /// Subscribed topics with fewer partitions than the catalogue's, at the last look.
    public var partitionShortfall: [PartitionShortfall] { partitionCounts.shortfall }

    /// Whether every subscribed topic exists with partitions (one metadata request each, at most a second).
    private func subscribedTopicsHavePartitions(_ client: ConsumerClient) -> Bool {
        configuration.topics.allSatisfy { topic in
            (try? client.handle.partitionCount(of: topic, timeoutMilliseconds: 1_000)) != nil
        }
    }

    /// For a replay from a time: messages older than it are passed over. A passed-over message's offset is stored
    /// only when nothing before it in its partition is still to be applied (a batch in hand, or a message kept from
    /// this poll; timestamps need not grow with offsets): storing it would commit past them. Otherwise the offset
    /// the reader stores after applying covers it.
    private func skipOlderThanStartTimestamp(_ batch: [KafkaMessage]) throws -> [KafkaMessage] {
        guard case .timestamp(let start) = configuration.startPosition else { return batch }
        var kept: [KafkaMessage] = []
        var pending: Set<RebalanceContext.PartitionID> = []
        for message in batch {
            let partition = RebalanceContext.PartitionID(topic: message.topic, partition: message.partition)
            if let time = message.timestampMilliseconds, time < start {
                if !pending.contains(partition) && !partitionsInHand.holds(topic: message.topic, partition: message.partition) {
                    storeOffset(of: message)
                }
                skippedCount.add(1, ordering: .releasing)
            } else {
                kept.append(message)
                pending.insert(partition)
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
        let code = rd_kafka_offsets_store(current.handle.pointer, list)
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
        /// The partition's high watermark: the offset the next message written to it will get.
        public var end: Int64
    }

    /// `lag()` per assigned partition whose high watermark is known. Local calls only: no broker round trip.
    public func lagByPartition() -> [PartitionLag] {
        guard !isClosed.load(ordering: .acquiring) else { return [] }
        return clientInUse.withLock { _ in
            // Checked again under the lock: a close that took it first has destroyed the client by now.
            isClosed.load(ordering: .acquiring) ? [] : lagByPartition(of: current)
        }
    }

    private func lagByPartition(of client: ConsumerClient) -> [PartitionLag] {
        // One read of the client, so handle and assignment belong to the same member.
        let (handle, context) = (client.handle, client.context)
        var result: [PartitionLag] = []
        for partition in context.assignedPartitions {
            var low: Int64 = 0
            var high: Int64 = 0
            guard
                rd_kafka_get_watermark_offsets(handle.pointer, partition.topic, partition.partition, &low, &high)
                    == RD_KAFKA_RESP_ERR_NO_ERROR, high >= 0
            else { continue }
            let list = rd_kafka_topic_partition_list_new(1)
            defer { rd_kafka_topic_partition_list_destroy(list) }
            rd_kafka_topic_partition_list_add(list, partition.topic, partition.partition)
            rd_kafka_position(handle.pointer, list)
            let position = list?.pointee.elems.pointee.offset ?? -1
            result.append(
                PartitionLag(topic: partition.topic, partition: partition.partition, lag: max(0, high - (position >= 0 ? position : low)), end: high))
        }
        return result
    }

    /// Number of partitions this member holds right now.
    public var assignedPartitionCount: Int { current.context.assignedPartitions.count }

    /// Leaves the group: commits stored offsets, revokes partitions, and releases the client. Safe to call twice.
    ///
    /// A member whose first join is still under way (Tansu answers a join after about half the session timeout)
    /// holds nothing to commit or revoke, and closing it would wait out the join, holding a shutdown for seconds:
    /// it is released without the leave-group dance, and the group drops it when its session times out. A member
    /// that joined, even one left idle with no partition, leaves properly, so the others rebalance at once.
    public func close() async {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = try? await executor.run {
            self.clientInUse.withLock { _ in
                let client = self.current
                if client.context.hasJoined { client.close() } else { client.abandon() }
            }
        }
    }
}
