import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformKafka
import PlatformPostgres
import PostgresNIO
import Synchronization
import TestSupport

/// The idempotent consumer end to end with a trivial handler (one upserted row per event): `events` envelopes
/// pre-produced to a 6-partition topic, then timed from the first applied event until all are applied, next to
/// psql writing the same rows (the processed-event id and the effect row) with COPY in transactions of the
/// consumer's own average batch size, in the same run.
struct ConsumerBench {
    let brokers: String
    let postgresHost: String
    let postgresPort: Int
    let postgresUser: String
    let events: Int
    let psql: String
    /// Messages per poll (the services' `CONSUMER_BATCH_SIZE`).
    let batchSize: Int

    struct Results {
        var perEventHandler = 0.0
        var batchHandler = 0.0
        /// The same handler polling only once everything polled is applied (`CONSUMER_POLLS_AHEAD=0`).
        var batchHandlerWithoutPollingAhead = 0.0
        var referenceCopy = 0.0
        var averageBatch = 0.0
    }

    func run() async throws -> Results {
        let logger = Logger(label: "bench")
        let topic = "bench.consumer.\(UUID().uuidString.prefix(8).lowercased())"
        let admin = try KafkaAdmin(broker: KafkaBrokerConfiguration(bootstrapServers: brokers, clientId: "bench"))
        try await admin.createTopics([KafkaTopicSpec(name: topic, partitions: 6)])
        try await admin.createTopics([KafkaTopicSpec(name: Topic.deadLetterName(of: topic), partitions: 1)])
        progress("consumer: producing \(events) events")
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(broker: KafkaBrokerConfiguration(bootstrapServers: brokers, clientId: "bench")),
            logger: logger)
        for start in stride(from: 0, to: events, by: 10_000) {
            let messages = try (start..<min(events, start + 10_000)).map { sequence in
                let envelope = EventEnvelope(
                    type: EventType("bench.applied"), producer: "bench", key: String(sequence % 997), payload: BenchEvent(sequence: sequence))
                return KafkaOutgoingMessage(topic: topic, key: envelope.key, value: try envelope.encoded())
            }
            try await producer.send(messages)
        }
        var results = Results()
        progress("consumer: applying them with a per-event upsert handler")
        let perEvent = try await consume(topic: topic, handler: UpsertPerEvent(), producer: producer)
        results.perEventHandler = perEvent.rate
        results.averageBatch = perEvent.averageBatch
        progress("consumer: applying them again (new group, new database) with a one-statement batch handler")
        results.batchHandler = try await consume(topic: topic, handler: UpsertBatch(), producer: producer).rate
        progress("consumer: once more with the batch handler, polling only once everything polled is applied")
        results.batchHandlerWithoutPollingAhead = try await consume(topic: topic, handler: UpsertBatch(), producer: producer, pollsAhead: 0).rate
        progress("consumer: psql COPY of the same rows in transactions of \(Int(perEvent.averageBatch.rounded()))")
        results.referenceCopy = try await referenceCopy(batchSize: max(1, Int(perEvent.averageBatch.rounded())))
        try await producer.close()
        return results
    }

    /// Runs an `EventConsumerService` on a fresh database until every event is applied.
    private func consume(
        topic: String, handler: any EventHandler & BatchCounting, producer: KafkaProducer, pollsAhead: Int = 4
    ) async throws -> (rate: Double, averageBatch: Double) {
        let logger = Logger(label: "bench")
        return try await withBenchDatabase { client in
            try await MigrationRunner(schema: "bench", serviceMigrations: [Self.effects]).run(on: client, logger: logger)
            var configuration = KafkaConsumerConfiguration(
                broker: KafkaBrokerConfiguration(bootstrapServers: brokers, clientId: "bench"), groupId: "bench-\(UUID())", topics: [topic])
            configuration.fetchWaitMaxMilliseconds = 100
            configuration.maxBatchSize = batchSize
            let service = EventConsumerService(
                consumer: try KafkaConsumer(configuration: configuration, logger: logger), processor: IdempotentProcessor(client: client),
                handler: handler, deadLetters: DeadLetterPublisher(producer: producer, service: "bench"), pollsAhead: pollsAhead,
                startGate: StartGate(open: true), logger: logger)
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                // Progress is read from the handler's own counter, not from `count(*)` on the table: a count every few
                // milliseconds scans the growing table and took a third of Postgres' time from the consumer (perf).
                // The clock starts with the first handled event and stops once the table holds every row.
                var started: ContinuousClock.Instant?
                var applied = 0
                let deadline = ContinuousClock.now + .seconds(300)
                while applied < events {
                    guard ContinuousClock.now < deadline else { throw BenchError("consumer applied \(applied) of \(events)") }
                    try await Task.sleep(for: .milliseconds(1))
                    if started == nil && handler.handled > 0 { started = .now }
                    if handler.handled >= events {
                        applied = try await queryInt(client, "SELECT count(*)::int FROM effects")
                    }
                }
                let elapsed = ContinuousClock.now - (started ?? .now)
                service.stop()
                try await group.waitForAll()
                return (Double(events) / elapsed.seconds, Double(events) / Double(max(1, handler.batches)))
            }
        }
    }

    /// psql, fed one script: per batch `BEGIN; COPY processed_events ...; COPY effects ...; COMMIT;`.
    private func referenceCopy(batchSize: Int) async throws -> Double {
        let logger = Logger(label: "bench")
        return try await withBenchDatabase { client, database in
            try await MigrationRunner(schema: "bench", serviceMigrations: [Self.effects]).run(on: client, logger: logger)
            var script = "SET search_path TO bench;\n"
            for start in stride(from: 0, to: events, by: batchSize) {
                let range = start..<min(events, start + batchSize)
                let ids = range.map { _ in UUID().uuidString }
                script += "BEGIN;\nCOPY processed_events (event_id, topic) FROM STDIN;\n"
                script += ids.map { "\($0)\tbench\n" }.joined() + "\\.\n"
                script += "COPY effects (sequence, event_id) FROM STDIN;\n"
                script += zip(range, ids).map { "\($0)\t\($1)\n" }.joined() + "\\.\nCOMMIT;\n"
            }
            let file = NSTemporaryDirectory() + "bench-copy-\(UUID().uuidString).sql"
            try script.write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: psql)
            process.arguments = [
                "-h", postgresHost, "-p", "\(postgresPort)", "-U", postgresUser, "-d", database, "-q", "-v", "ON_ERROR_STOP=1", "-f", file,
            ]
            process.standardOutput = FileHandle.nullDevice
            let started = ContinuousClock.now
            try process.run()
            process.waitUntilExit()
            let elapsed = ContinuousClock.now - started
            guard process.terminationStatus == 0 else { throw BenchError("psql COPY failed (\(process.terminationStatus))") }
            let written = try await queryInt(client, "SELECT count(*)::int FROM effects")
            guard written == events else { throw BenchError("psql wrote \(written) of \(events) rows") }
            return Double(events) / elapsed.seconds
        }
    }

    private func withBenchDatabase<Result: Sendable>(_ body: @Sendable (PostgresClient) async throws -> Result) async throws -> Result {
        try await withBenchDatabase { client, _ in try await body(client) }
    }

    private func withBenchDatabase<Result: Sendable>(
        _ body: @Sendable (PostgresClient, String) async throws -> Result
    ) async throws -> Result {
        let logger = Logger(label: "bench")
        let databases = DatabaseServer(host: postgresHost, port: postgresPort, user: postgresUser)
        let database = try await databases.createDatabase(prefix: "bench_consumer")
        let configuration = databases.configuration(database: database, schema: "bench")
        let result = try await withRunningClient(configuration.makeClient(logger: logger)) { try await body($0, database) }
        try await databases.dropDatabase(database)
        return result
    }

    static let effects = Migration(
        "0001_effects",
        ["CREATE TABLE effects (sequence bigint PRIMARY KEY, event_id uuid NOT NULL, applications int NOT NULL DEFAULT 1)"])
}

struct BenchEvent: Codable, Sendable {
    var sequence: Int
}

/// Counts the transactions (one `handle(batch:)` call each) a handler took part in, and the events it handled.
protocol BatchCounting: Sendable {
    var batches: Int { get }
    var handled: Int { get }
}

/// The trivial handler as a service would write it first: one upsert per event.
final class UpsertPerEvent: EventHandler, BatchCounting {
    private let count = Atomic<Int>(0)
    private let eventCount = Atomic<Int>(0)
    var batches: Int { count.load(ordering: .relaxed) }
    var handled: Int { eventCount.load(ordering: .relaxed) }

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        let payload = try event.payload(as: BenchEvent.self)
        try await connection.query(
            """
            INSERT INTO effects (sequence, event_id) VALUES (\(payload.sequence), \(event.header.id))
            ON CONFLICT (sequence) DO UPDATE SET applications = effects.applications + 1
            """, logger: logger)
    }

    func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws {
        count.add(1, ordering: .relaxed)
        for event in events { try await handle(event, connection: connection, logger: logger) }
        eventCount.add(events.count, ordering: .relaxed)
    }
}

/// The same rows written with one statement per batch.
final class UpsertBatch: EventHandler, BatchCounting {
    private let count = Atomic<Int>(0)
    private let eventCount = Atomic<Int>(0)
    var batches: Int { count.load(ordering: .relaxed) }
    var handled: Int { eventCount.load(ordering: .relaxed) }

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        try await handle(batch: [event], connection: connection, logger: logger)
    }

    func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws {
        count.add(1, ordering: .relaxed)
        let sequences = try events.map { try $0.payload(as: BenchEvent.self).sequence }
        let ids = events.map(\.header.id)
        try await connection.query(
            """
            INSERT INTO effects (sequence, event_id) SELECT * FROM unnest(\(sequences)::bigint[], \(ids)::uuid[])
            ON CONFLICT (sequence) DO UPDATE SET applications = effects.applications + 1
            """, logger: logger)
        eventCount.add(events.count, ordering: .relaxed)
    }
}
