import Logging
import PlatformCore
import PlatformEvents
import PlatformKafka
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Runs one consumer group member (X2). Each poll brings a batch; its messages are split by partition and the
/// partitions are applied concurrently, each in order, each batch in one transaction through the
/// `IdempotentProcessor`, guarded by the `CrashGuard`. A partition's offset is stored only after its batch
/// committed (or its poison events were dead-lettered). Polling happens only between batches, so a rebalance
/// never races a batch in hand. On graceful shutdown it finishes what it can, stores nothing it did not
/// finish, and closes the consumer, which commits the stored offsets and leaves the group.
public final class EventConsumerService: Service, Sendable {
    let consumer: KafkaConsumer
    let processor: IdempotentProcessor
    let handler: any EventHandler
    let deadLetters: DeadLetterPublisher
    let retryPolicy: RetryPolicy
    let crashGuard: CrashGuard
    let startGate: StartGate
    let logger: Logger
    let metrics: ConsumerMetrics
    /// The owner of each consumed topic by name; an event from anyone else is dead-lettered unread. Topics not
    /// listed are not checked.
    let producers: [String: String]
    /// Fresh batches of different partitions run together; crash-guard suspects run alone.
    let gate = ApplyGate()
    /// Partitions paused on transient failures; readiness reads it.
    public let health: ConsumerHealth
    private let stopRequested = Atomic<Bool>(false)
    private let emptyPolls = Atomic<Int>(0)

    /// `maxCrashes`: how often one message may take the process down before it is dead-lettered unread.
    public init(
        consumer: KafkaConsumer, processor: IdempotentProcessor, handler: any EventHandler,
        deadLetters: DeadLetterPublisher, retryPolicy: RetryPolicy = RetryPolicy(), maxCrashes: Int = 3,
        producers: [String: String] = [:], startGate: StartGate, logger: Logger
    ) {
        self.producers = producers
        self.consumer = consumer
        self.processor = processor
        self.handler = handler
        self.deadLetters = deadLetters
        self.retryPolicy = retryPolicy
        self.crashGuard = CrashGuard(client: processor.client, group: consumer.configuration.groupId, maxCrashes: maxCrashes)
        self.startGate = startGate
        self.logger = logger
        self.metrics = ConsumerMetrics(group: consumer.configuration.groupId, topics: consumer.configuration.topics)
        self.health = ConsumerHealth(
            topics: consumer.configuration.topics, missingTopicSince: { [consumer] in consumer.missingTopicSince },
            unassignedSince: { [consumer] in consumer.unassignedSince }, partitionShortfall: { [consumer] in consumer.partitionShortfall })
    }

    /// Messages behind the high watermark per assigned partition (see `KafkaConsumer.lagByPartition`).
    public func lagByPartition() -> [KafkaConsumer.PartitionLag] { consumer.lagByPartition() }

    /// Partitions this member holds right now.
    public var assignedPartitionCount: Int { consumer.assignedPartitionCount }

    /// Polls in a row that brought nothing. The loop polls only after applying what the last poll brought, so
    /// an empty poll means every message polled before it was applied (or dead-lettered): with no lag, the
    /// member has caught up (a rebuild waits for that).
    public var consecutiveEmptyPolls: Int { emptyPolls.load(ordering: .acquiring) }

    public func run() async throws {
        guard await startGate.waitUnlessShuttingDown() else {
            await consumer.close()
            return
        }
        await withGracefulShutdownHandler {
            await consumeUntilStopped()
        } onGracefulShutdown: {
            self.stopRequested.store(true, ordering: .releasing)
        }
        await consumer.close()
        logger.info("consumer stopped", metadata: ["group": "\(consumer.configuration.groupId)"])
    }

    /// Reads the envelope of a consumed message: not an envelope, or from a producer that does not own the
    /// topic, is a permanent error with its dead-letter reason.
    func receive(_ message: KafkaMessage) -> Result<ReceivedEvent, ForeignProducerOrUndecodable> {
        var event: ReceivedEvent
        do {
            event = try ReceivedEvent(bytes: message.value, traceParent: message.traceParent)
        } catch {
            return .failure(ForeignProducerOrUndecodable(error: error, reason: .undecodable))
        }
        event.position = LogPosition(topic: message.topic, partition: message.partition, offset: message.offset)
        if let owner = producers[message.topic], event.header.producer != owner {
            let error = EventDecodingError(
                reason: "producer \(event.header.producer.prefix(100)) does not own \(message.topic) (its producer is \(owner))")
            return .failure(ForeignProducerOrUndecodable(error: error, reason: .foreignProducer))
        }
        return .success(event)
    }

    /// Asks the loop to stop after the work in hand (used by tests and by `run`'s shutdown handler).
    public func stop() {
        stopRequested.store(true, ordering: .releasing)
    }

    var shouldStop: Bool { stopRequested.load(ordering: .acquiring) || Task.isCancelled }

    private func consumeUntilStopped() async {
        while !shouldStop {
            let batch: [KafkaMessage]
            do {
                batch = try await consumer.poll()
            } catch {
                logger.error("poll failed", metadata: ["error": "\(String(reflecting: error))"])
                try? await Task.sleep(for: .milliseconds(500))
                continue
            }
            if batch.isEmpty {
                emptyPolls.add(1, ordering: .acquiringAndReleasing)
            } else {
                emptyPolls.store(0, ordering: .releasing)
            }
            let finished = await withTaskGroup(of: Bool.self) { group in
                for partition in PartitionBatch.split(batch) {
                    group.addTask { await self.apply(partition) }
                }
                var finished = true
                for await done in group { finished = finished && done }
                return finished
            }
            recordLag()
            // A partition not finished here is not stored: the group delivers it again later.
            if !finished { return }
        }
    }

    private func recordLag() {
        for partition in consumer.lagByPartition() {
            metrics.lag(topic: partition.topic, partition: partition.partition, messages: partition.lag)
        }
        let paused = health.longestPause.map { (ContinuousClock.now - $0.since).seconds } ?? 0
        metrics.paused(seconds: paused)
    }
}

/// The messages of one partition from one poll, in offset order.
struct PartitionBatch: Sendable {
    var topic: String
    var partition: Int32
    var messages: [KafkaMessage]

    /// `topic[partition]`, as logs and readiness name it.
    var name: String { "\(topic)[\(partition)]" }

    /// Groups a poll's messages by partition, keeping their order within each partition.
    static func split(_ messages: [KafkaMessage]) -> [PartitionBatch] {
        var batches: [PartitionBatch] = []
        var index: [String: Int] = [:]
        for message in messages {
            let key = "\(message.topic)\u{0}\(message.partition)"
            if let position = index[key] {
                batches[position].messages.append(message)
            } else {
                index[key] = batches.count
                batches.append(PartitionBatch(topic: message.topic, partition: message.partition, messages: [message]))
            }
        }
        return batches
    }
}

/// Why a consumed message is not handed to the handler, and the dead-letter reason that says so.
struct ForeignProducerOrUndecodable: Error {
    let error: EventDecodingError
    let reason: DeadLetterReason
}
