import Logging
import PlatformCore
import PlatformEvents
import PlatformKafka
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Runs one consumer group member (X2). Each poll brings a batch; its messages are split by partition, and each
/// partition's batch is applied in one transaction through the `IdempotentProcessor`, guarded by the
/// `CrashGuard`. The loop polls the next batch while the last ones apply (`PartitionPipeline`): batches of one
/// partition apply in order, those of different partitions side by side. A partition's offset is stored only after
/// its batch committed (or its poison events were dead-lettered); the partitions being applied are held in the
/// consumer's `partitionsInHand`, so a rebalance waits for them before it commits and revokes. On graceful
/// shutdown it finishes what it can, stores nothing it did not finish, and closes the consumer, which commits the
/// stored offsets and leaves the group.
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
    /// Polls' worth of messages the loop may hold beyond what is applied: it polls while they apply. One is enough
    /// to overlap a poll with a transaction; a few let other partitions' batches apply beside it (the batch-handler
    /// bench went from 0.38 of `COPY` at one to 0.53 at four).
    let pollsAhead: Int
    /// Fresh batches of different partitions run together; crash-guard suspects run alone.
    let gate = ApplyGate()
    /// Partitions paused on transient failures; readiness reads it.
    public let health: ConsumerHealth
    private let stopRequested = Atomic<Bool>(false)
    private let emptyPolls = Atomic<Int>(0)

    /// `maxCrashes`: how often one message may take the process down before it is dead-lettered unread.
    /// `pollsAhead`: polls' worth of messages held beyond what is applied (0: poll only once all is applied).
    public init(
        consumer: KafkaConsumer, processor: IdempotentProcessor, handler: any EventHandler,
        deadLetters: DeadLetterPublisher, retryPolicy: RetryPolicy = RetryPolicy(), maxCrashes: Int = 3, pollsAhead: Int = 4,
        producers: [String: String] = [:], startGate: StartGate, logger: Logger
    ) {
        self.pollsAhead = max(0, pollsAhead)
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

    /// Polls in a row that brought nothing. An empty poll is counted only once every batch polled before it was
    /// applied (or dead-lettered): with no lag, the member has caught up (a rebuild waits for that).
    public var consecutiveEmptyPolls: Int { emptyPolls.load(ordering: .acquiring) }

    public func run() async throws {
        guard await startGate.waitUnlessShuttingDown() else {
            await consumer.close()
            return
        }
        // The batches apply in tasks of their own, which do not see this task's cancellation: it becomes a stop.
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await consumeUntilStopped()
            } onGracefulShutdown: {
                self.stop()
            }
        } onCancel: {
            self.stop()
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
        var pipeline = PartitionPipeline<PartitionKey>()
        let inHand = consumer.partitionsInHand
        // A bounded backlog: before each poll, at most `pollsAhead` polls' worth is still being applied.
        let ahead = consumer.configuration.maxBatchSize * pollsAhead
        while !shouldStop {
            guard await pipeline.waitUntil(outstandingAtMost: ahead) else { break }
            let batch: [KafkaMessage]
            do {
                batch = try await consumer.poll()
            } catch {
                logger.error("poll failed", metadata: ["error": "\(String(reflecting: error))"])
                try? await Task.sleep(for: .milliseconds(500))
                continue
            }
            if batch.isEmpty {
                guard await pipeline.drain() else { break }
                emptyPolls.add(1, ordering: .acquiringAndReleasing)
            } else {
                emptyPolls.store(0, ordering: .releasing)
                for partition in PartitionBatch.split(batch) {
                    // Held before the next poll, which is where a rebalance can revoke it.
                    let hold = inHand.hold(topic: partition.topic, partition: partition.partition)
                    pipeline.start(
                        PartitionKey(topic: partition.topic, partition: partition.partition), size: partition.messages.count,
                        prepare: { self.receivedAhead(partition) },
                        apply: { batch in
                            // Revoked while it waited its turn: its partition's owner reads it again from the
                            // committed offset, so it is dropped, neither applied nor stored.
                            guard inHand.isCurrent(hold) else { return true }
                            return await self.apply(batch)
                        },
                        finally: { inHand.release(hold) })
                }
            }
            recordLag()
        }
        // A partition not finished here is not stored: the group delivers it again later.
        _ = await pipeline.drain()
    }

    /// The batch with each message's envelope read, so its transaction starts with the decoding done.
    private func receivedAhead(_ batch: PartitionBatch) -> PartitionBatch {
        var batch = batch
        batch.received = batch.messages.map(receive)
        return batch
    }

    private func recordLag() {
        for partition in consumer.lagByPartition() {
            metrics.lag(topic: partition.topic, partition: partition.partition, messages: partition.lag)
        }
        let paused = health.longestPause.map { (ContinuousClock.now - $0.since).seconds } ?? 0
        metrics.paused(seconds: paused)
    }
}

/// A partition, as the pipeline chains its batches.
struct PartitionKey: Hashable, Sendable {
    var topic: String
    var partition: Int32
}

/// The messages of one partition from one poll, in offset order.
struct PartitionBatch: Sendable {
    var topic: String
    var partition: Int32
    var messages: [KafkaMessage]
    /// Each message's envelope, read ahead of the transaction (same indices as `messages`); empty when not read.
    var received: [Result<ReceivedEvent, ForeignProducerOrUndecodable>] = []

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
