import Foundation
import Logging
import Metrics
import PlatformCore
import PlatformKafka
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
    private let backlogGauge = Gauge(label: "outbox_backlog")
    private let oldestUnsentGauge = Gauge(label: "outbox_oldest_unsent_age_seconds")
    /// Progress and failures, for readiness.
    public let health = RelayHealth()

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
        var lastBacklogReading = ContinuousClock.now - .seconds(60)
        var consecutiveFailures = 0
        var producerGeneration = producer.generation
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            if ContinuousClock.now - lastBacklogReading > configuration.backlogReadingInterval {
                // Read even while publishing fails: the backlog growing is what an operator must see then.
                try? await recordBacklog()
                lastBacklogReading = .now
            }
            do {
                try await republishAfterRebuild(&producerGeneration)
                let count = try await withTimeLimit(configuration.stepTimeLimit) { try await self.publishBatch() }
                health.progressed()
                consecutiveFailures = 0
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
                health.failed(error)
                // Only the broker's failures say anything about the producer (a database error does not).
                consecutiveFailures = Self.isBrokerFailure(error) ? consecutiveFailures + 1 : 0
                if consecutiveFailures >= configuration.failuresBeforeProducerRebuild {
                    // A producer that lived through a broker restart may fail every send until it is rebuilt
                    // (the broker forgot its producer id); a fresh one works at once.
                    await producer.rebuild(reason: "\(consecutiveFailures) publish failures in a row: \(error)")
                    consecutiveFailures = 0
                }
                logger.warning(
                    "outbox relay could not publish; retrying", metadata: ["error": "\(String(reflecting: error))", "retryIn": "\(backoff)"])
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
            let lock = try await connection.tracedQuery(
                "SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || '.outbox_relay'))", logger: logger)
            var locked = false
            for try await (acquired) in lock.decode(Bool.self) { locked = acquired }
            guard locked else { return 0 }

            let rows = try await connection.tracedQuery(
                """
                SELECT id, event_id, event_type, topic, key, payload, trace_parent FROM outbox
                WHERE sent_at IS NULL ORDER BY id LIMIT \(batchSize) FOR UPDATE
                """, logger: logger)
            var ids: [Int64] = []
            var messages: [KafkaOutgoingMessage] = []
            for try await (id, eventId, eventType, topic, key, payload, traceParent) in rows.decode(
                (Int64, UUID, String, String, String, ByteBuffer, String?).self)
            {
                ids.append(id)
                var headers = [KafkaHeader(name: "event-id", string: eventId.uuidString), KafkaHeader(name: "event-type", string: eventType)]
                if let traceParent { headers.append(.traceParent(traceParent)) }
                messages.append(KafkaOutgoingMessage(topic: topic, key: key, value: Array(payload.readableBytesView), headers: headers))
            }
            guard !ids.isEmpty else { return 0 }
            try await producer.send(messages)
            try await connection.tracedQuery("UPDATE outbox SET sent_at = now() WHERE id = ANY(\(ids))", logger: logger)
            return ids.count
        }
        if count > 0 { published.increment(by: count) }
        return count
    }

    /// Number of rows not yet published.
    public func backlog() async throws -> Int {
        let rows = try await client.tracedQuery("SELECT count(*) FROM outbox WHERE sent_at IS NULL", logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    /// Failures that say the producer may be stuck: the broker unreachable or timing out, or a batch that did not
    /// finish in time. A message the broker refuses for itself (too large, say) is not one: a new producer would
    /// be refused too. The send runs inside the claiming transaction, so its error may arrive wrapped.
    private static func isBrokerFailure(_ error: any Error) -> Bool {
        if error is StepTimeout { return true }
        let kafka = error as? KafkaError ?? (error as? PostgresTransactionError)?.closureError as? KafkaError
        return kafka?.suggestsProducerRebuild ?? false
    }

    /// After the producer was rebuilt (the broker was lost, or publishing kept failing), marks the rows sent
    /// within `republishWindow` unsent again, so they go out once more in id order. A broker that restarted
    /// without its log (the local memory broker; a cluster after an unclean failover) may have dropped them
    /// after acknowledging them; consumers are idempotent, so the copies cost only bandwidth.
    private func republishAfterRebuild(_ seenGeneration: inout Int) async throws {
        let generation = producer.generation
        guard generation != seenGeneration else { return }
        guard configuration.republishWindow > .zero else {
            seenGeneration = generation
            return
        }
        let seconds = Double(configuration.republishWindow.components.seconds)
        let rows = try await client.tracedQuery(
            """
            WITH again AS (UPDATE outbox SET sent_at = NULL WHERE sent_at > now() - make_interval(secs => \(seconds)) RETURNING 1)
            SELECT count(*)::bigint FROM again
            """, logger: logger)
        var count: Int64 = 0
        for try await value in rows.decode(Int64.self) { count = value }
        seenGeneration = generation
        logger.warning(
            "producer was rebuilt; re-publishing events sent shortly before",
            metadata: ["events": "\(count)", "windowSeconds": "\(configuration.republishWindow.components.seconds)"])
    }

    /// Rows waiting and the age of the oldest, as gauges.
    private func recordBacklog() async throws {
        let rows = try await client.tracedQuery(
            """
            SELECT count(*)::bigint, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8
            FROM outbox WHERE sent_at IS NULL
            """, logger: logger)
        for try await (count, age) in rows.decode((Int64, Double).self) {
            backlogGauge.record(count)
            oldestUnsentGauge.record(age)
        }
    }

    private func purgeSentRows() async throws {
        let seconds = Int(configuration.retention.components.seconds)
        try await client.tracedQuery(
            "DELETE FROM outbox WHERE sent_at < now() - make_interval(secs => \(seconds))", logger: logger)
    }
}
