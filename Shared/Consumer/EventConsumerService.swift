import Logging
import Metrics
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Runs one consumer group member: for each message, decode the envelope, apply it once through the
/// `IdempotentProcessor` (retrying transient failures), dead-letter what cannot be handled, and only then
/// store the offset. On graceful shutdown it finishes the message in hand, stops polling, and closes the
/// consumer, which commits the stored offsets and leaves the group.
public final class EventConsumerService: Service, Sendable {
    private let consumer: KafkaConsumer
    private let processor: IdempotentProcessor
    private let handler: any EventHandler
    private let deadLetters: DeadLetterPublisher
    private let retryPolicy: RetryPolicy
    private let startGate: StartGate
    private let logger: Logger
    private let stopRequested = Atomic<Bool>(false)

    public init(
        consumer: KafkaConsumer, processor: IdempotentProcessor, handler: any EventHandler,
        deadLetters: DeadLetterPublisher, retryPolicy: RetryPolicy = RetryPolicy(), startGate: StartGate, logger: Logger
    ) {
        self.consumer = consumer
        self.processor = processor
        self.handler = handler
        self.deadLetters = deadLetters
        self.retryPolicy = retryPolicy
        self.startGate = startGate
        self.logger = logger
    }

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

    /// Asks the loop to stop after the message in hand (used by tests and by `run`'s shutdown handler).
    public func stop() {
        stopRequested.store(true, ordering: .releasing)
    }

    private var shouldStop: Bool { stopRequested.load(ordering: .acquiring) || Task.isCancelled }

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
            for message in batch {
                // A message not finished here is not stored: the group delivers it again later.
                guard !shouldStop, await handle(message) else { return }
            }
            Gauge(label: "consumer_lag", dimensions: [("group", consumer.configuration.groupId)]).record(consumer.lag())
        }
    }

    /// Handles one message to the end (applied, duplicate or dead-lettered) and stores its offset.
    /// Returns false when it had to give up because the service is stopping.
    func handle(_ message: KafkaMessage) async -> Bool {
        var metadata: Logger.Metadata = [
            "topic": "\(message.topic)", "partition": "\(message.partition)", "offset": "\(message.offset)",
        ]
        let event: ReceivedEvent
        do {
            event = try ReceivedEvent(bytes: message.value)
        } catch {
            return await deadLetter(message, error: error, attempts: 1, metadata: metadata)
        }
        metadata["eventId"] = "\(event.header.id)"
        metadata["eventType"] = "\(event.header.type)"
        var attempt = 1
        while true {
            do {
                let outcome = try await processor.process(event, topic: message.topic, handler: handler, logger: logger)
                count(message.topic, outcome.rawValue)
                logger.debug("event \(outcome.rawValue)", metadata: metadata)
                consumer.storeOffset(of: message)
                return true
            } catch {
                let permanent = error is any PermanentEventError
                if permanent || attempt >= retryPolicy.maxAttempts {
                    return await deadLetter(message, error: error, attempts: attempt, metadata: metadata)
                }
                logger.warning("handler failed; retrying", metadata: metadata.merging(["error": "\(String(reflecting: error))", "attempt": "\(attempt)"]) { $1 })
                try? await Task.sleep(for: retryPolicy.delay(after: attempt))
                if shouldStop { return false }
                attempt += 1
            }
        }
    }

    private func deadLetter(_ message: KafkaMessage, error: any Error, attempts: Int, metadata: Logger.Metadata) async -> Bool {
        logger.error("event dead-lettered", metadata: metadata.merging(["error": "\(String(reflecting: error))"]) { $1 })
        var delay = retryPolicy.initialDelay
        while true {
            do {
                try await deadLetters.publish(message, error: error, attempts: attempts)
                count(message.topic, "dead_lettered")
                consumer.storeOffset(of: message)
                return true
            } catch {
                logger.error("dead-letter publish failed; retrying", metadata: ["error": "\(String(reflecting: error))"])
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, retryPolicy.maxDelay)
                if shouldStop { return false }
            }
        }
    }

    private func count(_ topic: String, _ outcome: String) {
        Counter(label: "events_consumed_total", dimensions: [("topic", topic), ("outcome", outcome)]).increment()
    }
}
