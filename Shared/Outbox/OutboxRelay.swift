import Foundation
import Logging
import Metrics
import PostgresNIO
import ServiceLifecycle

/// Publishes outbox rows to Kafka and marks them sent. Correctness rests on three choices:
/// - it reads *unsent* rows rather than "rows after the last id seen", so a row whose transaction commits late
///   (and so took a lower id than rows already published) is still picked up;
/// - only one relay per schema publishes at a time (a transaction-scoped advisory lock), and it publishes each
///   batch in id order with an idempotent producer, so events of one key keep their order with many instances;
/// - rows are marked sent in the same transaction only after the broker acknowledged them; a crash in between
///   publishes them again, which idempotent consumers absorb (at-least-once, never lost).
public final class OutboxRelay: Service, Sendable {
    private let client: PostgresClient
    private let producer: KafkaProducer
    private let configuration: OutboxRelayConfiguration
    private let startGate: StartGate
    private let logger: Logger
    private let published = Counter(label: "outbox_published_total")
    private let failures = Counter(label: "outbox_publish_failures_total")

    public init(
        client: PostgresClient, producer: KafkaProducer, configuration: OutboxRelayConfiguration,
        startGate: StartGate, logger: Logger
    ) {
        self.client = client
        self.producer = producer
        self.configuration = configuration
        self.startGate = startGate
        self.logger = logger
    }

    public func run() async throws {
        guard await startGate.waitUnlessShuttingDown() else { return }
        var backoff = configuration.initialBackoff
        var lastPurge = ContinuousClock.now
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let count = try await publishBatch()
                backoff = configuration.initialBackoff
                if ContinuousClock.now - lastPurge > .seconds(60) {
                    try await purgeSentRows()
                    lastPurge = .now
                }
                if count < configuration.batchSize {
                    try? await Task.sleep(for: configuration.idleInterval)
                }
            } catch {
                failures.increment()
                logger.warning("outbox relay could not publish; retrying", metadata: ["error": "\(String(reflecting: error))", "retryIn": "\(backoff)"])
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, configuration.maxBackoff)
            }
        }
    }

    /// Publishes at most one batch; returns how many rows it published (0 when another relay holds the lock).
    @discardableResult
    public func publishBatch() async throws -> Int {
        let (producer, logger, batchSize) = (self.producer, self.logger, configuration.batchSize)
        let count = try await client.withTransaction(logger: logger) { connection -> Int in
            let lock = try await connection.query(
                "SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || '.outbox_relay'))", logger: logger)
            var locked = false
            for try await (acquired) in lock.decode(Bool.self) { locked = acquired }
            guard locked else { return 0 }

            let rows = try await connection.query(
                """
                SELECT id, event_id, event_type, topic, key, payload FROM outbox
                WHERE sent_at IS NULL ORDER BY id LIMIT \(batchSize) FOR UPDATE
                """, logger: logger)
            var ids: [Int64] = []
            var messages: [KafkaOutgoingMessage] = []
            for try await (id, eventId, eventType, topic, key, payload) in rows.decode((Int64, UUID, String, String, String, ByteBuffer).self) {
                ids.append(id)
                messages.append(KafkaOutgoingMessage(
                    topic: topic, key: key, value: Array(payload.readableBytesView),
                    headers: [KafkaHeader(name: "event-id", string: eventId.uuidString), KafkaHeader(name: "event-type", string: eventType)]))
            }
            guard !ids.isEmpty else { return 0 }
            try await producer.send(messages)
            try await connection.query("UPDATE outbox SET sent_at = now() WHERE id = ANY(\(ids))", logger: logger)
            return ids.count
        }
        if count > 0 { published.increment(by: count) }
        return count
    }

    /// Number of rows not yet published.
    public func backlog() async throws -> Int {
        let rows = try await client.query("SELECT count(*) FROM outbox WHERE sent_at IS NULL", logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    private func purgeSentRows() async throws {
        let seconds = Int(configuration.retention.components.seconds)
        try await client.query(
            "DELETE FROM outbox WHERE sent_at < now() - make_interval(secs => \(seconds))", logger: logger)
    }
}
