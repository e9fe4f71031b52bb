import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformKafka
import PlatformPostgres
import PostgresNIO
import Synchronization
import TestSupport
import Testing
import UnitTestSupport

/// The event consumer polls the next batch while the current ones apply. A rebalance then lands while
/// batches are in hand and while a poll holds messages of partitions about to be revoked; these tests change the
/// group's members on a random schedule under a steady stream of events and check the property that matters:
/// every event applied exactly once, none skipped, each key's events in order.
@Suite("The event consumer across rebalances, against the real broker and Postgres")
struct ConsumerRebalanceTests {
    let logger = Logger(label: "test")

    /// Every delivery the handler sees is recorded (no `processed_events` ledger in front of it), so an event
    /// delivered twice shows up as two rows, and one skipped as none.
    static let applications = Migration(
        "0001_applications",
        [
            """
            CREATE TABLE applications (
                position bigserial PRIMARY KEY, event_id uuid NOT NULL, key text NOT NULL, sequence int NOT NULL, member int NOT NULL)
            """
        ])

    /// Records a batch with one statement, then holds its transaction for 150 ms: with batches of ten, the members
    /// are applying most of the time, so the group rebalances while batches are in hand (and mutating the consumer
    /// so a revoke does not wait for them makes this test fail).
    struct RecordApplications: EventHandler {
        let member: Int

        func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
            try await handle(batch: [event], connection: connection, logger: logger)
        }

        func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws {
            let ids = events.map(\.header.id)
            let keys = events.map(\.header.key)
            let sequences = try events.map { try $0.payload(as: Counted.self).sequence }
            try await connection.query(
                """
                INSERT INTO applications (event_id, key, sequence, member)
                SELECT id, key, sequence, \(member) FROM unnest(\(ids)::uuid[], \(keys)::text[], \(sequences)::int[]) AS batch(id, key, sequence)
                """, logger: logger)
            try await connection.query("SELECT pg_sleep(0.15)", logger: logger)
        }
    }

    /// One member of the group: its service and the task running it.
    struct Member {
        var id: Int
        var service: EventConsumerService
        var task: Task<Void, any Error>
    }

    @Test("X2: members join and leave while batches apply: every event applied once, none skipped, each key in order", arguments: [UInt64(7), 34])
    func rebalancesNeitherSkipNorRepeat(seed: UInt64) async throws {
        try await withTestDatabase(migrations: [Self.applications]) { db in
            try await withTopic(partitions: 6) { topic in
                try await withProducer { producer in
                    try await run(seed: seed, topic: topic, db: db, producer: producer)
                }
            }
        }
    }

    private func run(seed: UInt64, topic: String, db: TestDatabase, producer: KafkaProducer) async throws {
        var random = SeededRandom(seed: seed)
        let group = "g-\(uniqueSuffix())"
        let keys = 24
        let chunks = 60
        let perChunk = 40
        let events = chunks * perChunk

        func startMember(_ id: Int) throws -> Member {
            let service = EventConsumerService(
                consumer: try makeConsumer(topics: [topic], group: group, maxBatchSize: 10),
                processor: IdempotentProcessor(client: db.client, ledger: .handler), handler: RecordApplications(member: id),
                deadLetters: DeadLetterPublisher(producer: producer, service: "tests"),
                retryPolicy: RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(20)), startGate: StartGate(open: true),
                logger: logger)
            return Member(id: id, service: service, task: Task { try await service.run() })
        }

        // Events arrive steadily while the membership changes: 60 chunks, one every 400 ms.
        let production = Task {
            var sequences = [Int](repeating: 0, count: keys)
            for chunk in 0..<chunks {
                let messages = try (0..<perChunk).map { index in
                    let key = (chunk * perChunk + index) % keys
                    defer { sequences[key] += 1 }
                    let envelope = countedEvent(sequences[key], key: "k\(key)")
                    return KafkaOutgoingMessage(topic: topic, key: envelope.key, value: try envelope.encoded())
                }
                try await producer.send(messages)
                try await Task.sleep(for: .milliseconds(400))
            }
        }

        var running = [try startMember(0)]
        var nextId = 1
        // Six joins and leaves, one to three members at a time, each once the group has settled from the last: when
        // rebalances overlap, Tansu can answer a member's SyncGroup for a generation already gone and hand one
        // partition to two members for a moment (services' `processed_events` ledger absorbs that; this handler has
        // none, so it would count it against the consumer). Each change lands while batches are being applied.
        for change in 0..<6 {
            let settled = try await eventually(timeout: .seconds(40)) { [running] in
                let held = running.map(\.service.assignedPartitionCount)
                return held.allSatisfy { $0 > 0 } && held.reduce(0, +) == 6
            }
            #expect(settled, "seed \(seed): the group settled before change \(change)")
            try await Task.sleep(for: .milliseconds(Int.random(in: 300...1_500, using: &random)))
            if running.count == 1 || (running.count < 3 && Bool.random(using: &random)) {
                running.append(try startMember(nextId))
                nextId += 1
            } else {
                let leaving = running.remove(at: Int.random(in: 0..<running.count, using: &random))
                leaving.service.stop()
                try await leaving.task.value
            }
        }
        try await production.value
        let caughtUp = try await eventually(timeout: .seconds(60)) {
            try await count(db, "SELECT count(*)::int FROM applications") >= events
        }
        // A little longer: a late second delivery would land now.
        try await Task.sleep(for: .seconds(2))
        for member in running {
            member.service.stop()
            try await member.task.value
        }

        let applications = try await count(db, "SELECT count(*)::int FROM applications")
        let distinct = try await count(db, "SELECT count(DISTINCT event_id)::int FROM applications")
        #expect(caughtUp, "seed \(seed): every event applied (\(distinct) of \(events))")
        #expect(applications == events, "seed \(seed): no event applied twice (\(applications) applications of \(events) events)")
        #expect(distinct == events, "seed \(seed): none skipped (\(distinct) of \(events) applied)")
        let outOfOrder = try await count(
            db,
            """
            SELECT count(*)::int FROM (
                SELECT sequence, row_number() OVER (PARTITION BY key ORDER BY position) - 1 AS expected FROM applications
            ) AS applied WHERE sequence <> expected
            """)
        #expect(outOfOrder == 0, "seed \(seed): each key's events applied in order")
        #expect(try await count(db, "SELECT count(DISTINCT member)::int FROM applications") >= 2, "seed \(seed): the work moved between members")
    }

    private func count(_ db: TestDatabase, _ sql: String) async throws -> Int {
        let rows = try await db.client.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        for try await value in rows.decode(Int.self) { return value }
        return 0
    }
}
