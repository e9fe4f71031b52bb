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

@Suite("Idempotent consumers and dead letters against the real broker and Postgres")
struct IdempotentConsumerTests {
    let logger = Logger(label: "test")

    @Test("X2: a consumer that dies after applying an event but before storing its offset sees it again and applies it once")
    func crashBeforeOffsetStoreAppliesOnce() async throws {
        try await withTestDatabase(migrations: [effectsMigration]) { db in
            try await withTopic { topic in
                let event = countedEvent(1)
                try await withProducer { try await send(event, to: topic, producer: $0) }
                let group = "g-\(uniqueSuffix())"
                let processor = IdempotentProcessor(client: db.client)

                // First life: the effect commits, then the process "dies" without storing the offset.
                let firstLife = try makeConsumer(topics: [topic], group: group)
                let first = try await collect(1, from: firstLife, storeOffsets: false)
                #expect(first.count == 1)
                let outcome = try await processor.process(
                    try ReceivedEvent(bytes: first[0].value), topic: topic, handler: RecordEffect(), logger: logger)
                #expect(outcome == .applied)
                await firstLife.close()

                // Second life: the group delivers the event again; it is recognised and not applied twice.
                let secondLife = try makeConsumer(topics: [topic], group: group)
                let again = try await collect(1, from: secondLife)
                await secondLife.close()
                #expect(again.count == 1)
                let secondOutcome = try await processor.process(
                    try ReceivedEvent(bytes: again[0].value), topic: topic, handler: RecordEffect(), logger: logger)
                #expect(secondOutcome == .duplicate)
                #expect(try await effectCount(db.client, eventId: event.id) == 1)
            }
        }
    }

    @Test("X2: a handler that fails mid-transaction is retried and its effect lands once")
    func failedAttemptRollsBackAndRetryAppliesOnce() async throws {
        try await withTestDatabase(migrations: [effectsMigration]) { db in
            try await withTopic { topic in
                let attempts = Atomic<Int>(0)
                let flaky = ClosureEventHandler { event, connection, logger in
                    try await RecordEffect().handle(event, connection: connection, logger: logger)
                    if attempts.add(1, ordering: .relaxed).newValue == 1 { throw TransientFailure() }
                }
                try await withRunningConsumer(db: db, topic: topic, handler: flaky) { producer in
                    let event = countedEvent(7)
                    try await send(event, to: topic, producer: producer)
                    #expect(try await eventually { try await effectCount(db.client, eventId: event.id) == 1 })
                }
                #expect(attempts.load(ordering: .relaxed) == 2)
                #expect(try await effectCount(db.client) == 1)
            }
        }
    }

    @Test("X2: a poison message goes to the dead-letter topic with the error, and the next event is still processed")
    func poisonMessageIsDeadLettered() async throws {
        try await withTestDatabase(migrations: [effectsMigration]) { db in
            try await withTopic { topic in
                let good = countedEvent(2)
                try await withRunningConsumer(db: db, topic: topic, handler: RecordEffect()) { producer in
                    try await producer.send(KafkaOutgoingMessage(topic: topic, key: "k", value: Array("{not json".utf8)))
                    // An envelope whose payload does not fit the handler's type is poison too.
                    let wrongPayload = EventEnvelope(type: EventType("test.counted"), producer: "tests", key: "k", payload: ["x": "y"])
                    try await send(wrongPayload, to: topic, producer: producer)
                    try await send(good, to: topic, producer: producer)
                    #expect(try await eventually { try await effectCount(db.client, eventId: good.id) == 1 })
                }
                let deadLetters = try makeConsumer(topics: [Topic.deadLetterName(of: topic)], group: "dlq-\(uniqueSuffix())")
                let dead = try await collect(2, from: deadLetters)
                await deadLetters.close()
                #expect(dead.count == 2)
                #expect(dead[0].value == Array("{not json".utf8))
                #expect(dead[0].header("dlq-error")?.stringValue.contains("not an event envelope") == true)
                #expect(dead[0].header("dlq-source-topic")?.stringValue == topic)
                #expect(dead[1].header("dlq-error")?.stringValue.contains("payload of test.counted") == true)
                #expect(try await effectCount(db.client) == 1)
            }
        }
    }

    @Test("X2: an event whose handler keeps failing is dead-lettered after the configured attempts")
    func persistentFailureIsDeadLetteredAfterRetries() async throws {
        try await withTestDatabase(migrations: [effectsMigration]) { db in
            try await withTopic { topic in
                let failing = ClosureEventHandler { _, _, _ in throw TransientFailure() }
                try await withRunningConsumer(db: db, topic: topic, handler: failing) { producer in
                    try await send(countedEvent(3), to: topic, producer: producer)
                    let deadLetters = try makeConsumer(topics: [Topic.deadLetterName(of: topic)], group: "dlq-\(uniqueSuffix())")
                    let dead = try await collect(1, from: deadLetters)
                    await deadLetters.close()
                    #expect(dead.first?.header("dlq-attempts")?.stringValue == "3")
                }
                #expect(try await effectCount(db.client) == 0)
            }
        }
    }

    @Test("X1, X2: an event whose producer does not own the topic is dead-lettered unread; the owner's events apply")
    func foreignProducerIsDeadLettered() async throws {
        try await withTestDatabase(migrations: [effectsMigration]) { db in
            try await withTopic { topic in
                let owned = countedEvent(4)
                let forged = EventEnvelope(type: EventType("test.counted"), producer: "mallory", key: "k", payload: Counted(sequence: 5))
                try await withRunningConsumer(db: db, topic: topic, handler: RecordEffect(), producers: [topic: "tests"]) { producer in
                    try await send(forged, to: topic, producer: producer)
                    try await send(owned, to: topic, producer: producer)
                    #expect(try await eventually { try await effectCount(db.client, eventId: owned.id) == 1 })
                }
                let deadLetters = try makeConsumer(topics: [Topic.deadLetterName(of: topic)], group: "dlq-\(uniqueSuffix())")
                let dead = try await collect(1, from: deadLetters)
                await deadLetters.close()
                #expect(dead.first?.header("dlq-reason")?.stringValue == "foreign_producer")
                #expect(dead.first?.header("dlq-error")?.stringValue.contains("mallory") == true)
                #expect(try await effectCount(db.client) == 1, "the forged event was not applied")
            }
        }
    }

    /// Runs an `EventConsumerService` on `topic` during `body`, then stops it gracefully.
    private func withRunningConsumer(
        db: TestDatabase, topic: String, handler: any EventHandler, producers: [String: String] = [:],
        _ body: @Sendable (KafkaProducer) async throws -> Void
    ) async throws {
        try await withProducer { producer in
            let service = EventConsumerService(
                consumer: try makeConsumer(topics: [topic], group: "g-\(uniqueSuffix())"),
                processor: IdempotentProcessor(client: db.client), handler: handler,
                deadLetters: DeadLetterPublisher(producer: producer, service: "tests"),
                retryPolicy: RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(20)), producers: producers,
                startGate: StartGate(open: true),
                logger: logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                do {
                    try await body(producer)
                } catch {
                    service.stop()
                    throw error
                }
                service.stop()
                try await group.waitForAll()
            }
        }
    }
}

struct TransientFailure: Error {}
