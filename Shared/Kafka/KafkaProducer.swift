import CRdKafka
import Foundation
import Logging
import Metrics
import ServiceLifecycle
import Synchronization

/// An idempotent Kafka producer (`acks=all`). `send` returns once the broker acknowledged every message, and
/// throws when any could not be delivered. Delivery reports are served by a dedicated poll thread, so no
/// librdkafka call blocks Swift's cooperative pool. Run it in a `ServiceGroup` to flush on shutdown and to
/// have it recover by itself: after all brokers were lost (a broker that restarted without its state refuses
/// the old producer id until the messages time out) or a fatal error, it rebuilds its librdkafka client as soon
/// as a broker answers again.
public final class KafkaProducer: Service, Sendable {
    private let configuration: KafkaProducerConfiguration
    private let executor: BlockingExecutor
    private let logger: Logger
    private let isClosed = Atomic<Bool>(false)
    private let client: Mutex<ProducerClient>
    private let rebuilds = Counter(label: "kafka_producer_rebuilds_total")
    private let rebuildCount = Atomic<Int>(0)

    public init(configuration: KafkaProducerConfiguration, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        executor = BlockingExecutor(label: "kafka.producer.\(configuration.broker.clientId)")
        client = Mutex(try ProducerClient(configuration: configuration))
    }

    deinit {
        if !isClosed.load(ordering: .acquiring) {
            _ = client.withLock { $0 }.retire(purge: true, timeoutMilliseconds: 0)
        }
    }

    /// Sends one message and waits for the broker's acknowledgement.
    public func send(_ message: KafkaOutgoingMessage) async throws {
        try await send([message])
    }

    /// Sends messages in order and waits until every one is acknowledged. Messages with the same key land in
    /// one partition in this order; the idempotent producer keeps that order across retries.
    public func send(_ messages: [KafkaOutgoingMessage]) async throws {
        guard !messages.isEmpty else { return }
        // Announce the enqueue on the current client first, then check for close: `close` and `rebuild` swap or
        // flag first, then wait for the count to drop, so every send either sees the flag or is waited for.
        let current = client.withLock { client in
            client.enqueuing.add(1, ordering: .sequentiallyConsistent)
            return client
        }
        guard !isClosed.load(ordering: .sequentiallyConsistent) else {
            current.enqueuing.subtract(1, ordering: .sequentiallyConsistent)
            throw KafkaError("producer is closed")
        }
        let batch = DeliveryBatch(count: messages.count)
        for (index, message) in messages.enumerated() {
            do {
                try await enqueue(message, batch: batch, on: current)
            } catch {
                batch.abandon(count: messages.count - index, error: error as? KafkaError ?? KafkaError("\(error)"))
                break
            }
        }
        current.enqueuing.subtract(1, ordering: .sequentiallyConsistent)
        try await batch.wait()
    }

    /// Enqueues one message, waiting briefly while librdkafka's local queue is full.
    private func enqueue(_ message: KafkaOutgoingMessage, batch: DeliveryBatch, on client: ProducerClient) async throws {
        while true {
            let code = client.produce(message, batch: batch)
            if code == RD_KAFKA_RESP_ERR_NO_ERROR { return }
            if code == RD_KAFKA_RESP_ERR__QUEUE_FULL {
                try await Task.sleep(for: .milliseconds(2))
                continue
            }
            throw KafkaError(code: code, context: "could not enqueue message for \(message.topic)")
        }
    }

    /// Replaces the librdkafka client with a fresh one. Messages queued or in flight on the old one fail at once
    /// (their senders retry); a message the broker had already taken may then arrive twice, which idempotent
    /// consumers absorb. Safe to call from several tasks: each call replaces whatever client is current.
    public func rebuild(reason: String) async {
        guard !isClosed.load(ordering: .acquiring) else { return }
        let fresh: ProducerClient
        do {
            fresh = try ProducerClient(configuration: configuration)
        } catch {
            logger.error("could not rebuild the Kafka producer", metadata: ["error": "\(error)"])
            return
        }
        // Swap under the lock, re-checking close there: `close` flags first and then takes the client under the
        // same lock, so exactly one of the two retires each client.
        let old = client.withLock { client -> ProducerClient? in
            guard !isClosed.load(ordering: .sequentiallyConsistent) else { return nil }
            defer { client = fresh }
            return client
        }
        guard let old else {
            _ = try? await executor.run { fresh.retire(purge: true, timeoutMilliseconds: 0) }
            return
        }
        rebuilds.increment()
        rebuildCount.add(1, ordering: .releasing)
        logger.warning("Kafka producer rebuilt", metadata: ["reason": "\(reason)"])
        _ = try? await executor.run { old.retire(purge: true, timeoutMilliseconds: 1_000) }
    }

    /// How often the client was rebuilt: the outbox relay watches it to re-publish what a broker that lost its
    /// log may have dropped.
    public var generation: Int { rebuildCount.load(ordering: .acquiring) }

    /// Asks the brokers for metadata; true when at least one answered within the timeout.
    public func isBrokerReachable(timeoutMilliseconds: Int32 = 2_000) async -> Bool {
        // The handle is read on the serial executor, where `retire` runs too: no rebuild can destroy it mid-call.
        (try? await executor.run {
            guard !self.isClosed.load(ordering: .acquiring) else { return false }
            return try self.client.withLock { $0 }.handle.brokerCount(timeoutMilliseconds: timeoutMilliseconds) > 0
        }) ?? false
    }

    /// Runs until graceful shutdown, rebuilding the client when it reported lost brokers (once a broker answers
    /// again) or a fatal error; then flushes what is queued and closes the client.
    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            // Ended by a graceful shutdown too, so a stopping service does not wait out the pause.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(500)) }
            let signals = client.withLock { $0.signals }
            if signals.isFatal {
                await rebuild(reason: "librdkafka reported a fatal error")
            } else if signals.hasLostBrokers, await isBrokerReachable(timeoutMilliseconds: 1_000) {
                await rebuild(reason: "all brokers were lost and a broker answers again")
            }
        }
        try await close()
    }

    /// Flushes queued messages (up to `timeoutMilliseconds`) and releases the client. Safe to call twice.
    public func close(timeoutMilliseconds: Int32 = 10_000) async throws {
        guard !isClosed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let current = client.withLock { $0 }
        let remaining = try await executor.run { current.retire(purge: false, timeoutMilliseconds: timeoutMilliseconds) }
        if remaining > 0 {
            logger.error("Kafka producer closed with undelivered messages", metadata: ["count": "\(remaining)"])
        }
    }
}
