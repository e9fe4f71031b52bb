import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformPostgres
import PostgresNIO
import Synchronization
import TestSupport
import Testing

@Suite("Transactional outbox relay against the real broker and Postgres")
struct OutboxRelayTests {
    let logger = Logger(label: "test")

    @Test("X2: events written while the broker is down are all delivered once it is back, none twice")
    func outboxSurvivesBrokerOutage() async throws {
        try await withTestDatabase { db in
            let broker = BrokerProcess(port: freePort())  // not started: the broker is down
            let topic = "outage.\(uniqueSuffix())"
            let events = (0..<50).map { countedEvent($0, key: "city-\($0 % 5)") }
            try await withProducer(brokers: broker.address, messageTimeoutMilliseconds: 2_000) { producer in
                var configuration = OutboxRelayConfiguration()
                configuration.initialBackoff = .milliseconds(100)
                configuration.maxBackoff = .milliseconds(500)
                let relay = OutboxRelay(
                    client: db.client, producer: producer, configuration: configuration, startGate: StartGate(open: true),
                    logger: logger)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await relay.run() }
                    for event in events {
                        try await db.client.withTransaction(logger: logger) { connection in
                            try await Outbox.enqueue(event, toTopicNamed: topic, on: connection, logger: logger)
                        }
                    }
                    try await Task.sleep(for: .seconds(3))
                    #expect(try await relay.backlog() == 50, "nothing is marked sent while the broker is down")

                    try broker.start()
                    try await createTopics([topic], partitions: 3, brokers: broker.address)
                    #expect(try await eventually(timeout: .seconds(60)) { try await relay.backlog() == 0 })
                    group.cancelAll()
                }
            }
            let consumer = try makeConsumer(topics: [topic], group: "g-\(uniqueSuffix())", brokers: broker.address)
            let received = try await collect(50, from: consumer)
            let extra = try await collect(1, from: consumer, timeout: .seconds(3))
            await consumer.close()
            broker.stop()
            let ids = (received + extra).compactMap { try? ReceivedEvent(bytes: $0.value).header.id }
            #expect(ids.count == 50, "exactly the 50 events, no duplicates")
            #expect(Set(ids) == Set(events.map(\.id)))
        }
    }

    @Test("X2: a row whose transaction commits after later rows were published is still published")
    func lateCommittingRowIsNotSkipped() async throws {
        try await withTestDatabase { db in
            try await withTopic { topic in
                try await withProducer { producer in
                    let relay = OutboxRelay(
                        client: db.client, producer: producer, configuration: OutboxRelayConfiguration(),
                        startGate: StartGate(open: true), logger: logger)
                    let early = countedEvent(1)
                    let late = countedEvent(2)
                    let (inserted, insertedContinuation) = AsyncStream<Void>.makeStream()
                    let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
                    let slowClient = db.makeClient()
                    try await withRunningClient(slowClient) { slowClient in
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            // This transaction takes the lower id first but commits last.
                            group.addTask {
                                // Ends the stream on any exit, so a failure here cannot leave the test waiting.
                                defer { insertedContinuation.finish() }
                                try await slowClient.withTransaction(logger: logger) { connection in
                                    try await Outbox.enqueue(early, toTopicNamed: topic, on: connection, logger: logger)
                                    insertedContinuation.yield()
                                    for await _ in release { break }
                                }
                            }
                            for await _ in inserted { break }
                            try await db.client.withTransaction(logger: logger) { connection in
                                try await Outbox.enqueue(late, toTopicNamed: topic, on: connection, logger: logger)
                            }
                            #expect(try await relay.publishBatch() == 1, "only the committed row is visible")
                            releaseContinuation.yield()
                            try await group.waitForAll()
                        }
                    }
                    #expect(try await relay.publishBatch() == 1, "the late row is published on the next pass")
                    let consumer = try makeConsumer(topics: [topic], group: "g-\(uniqueSuffix())")
                    let received = try await collect(2, from: consumer)
                    await consumer.close()
                    #expect(Set(received.compactMap { try? ReceivedEvent(bytes: $0.value).header.id }) == [early.id, late.id])
                }
            }
        }
    }

    @Test("X2: two relay instances on one outbox keep each key's order and publish each event once")
    func twoRelaysKeepPerKeyOrder() async throws {
        try await withTestDatabase { db in
            try await withTopic(partitions: 3) { topic in
                let keys = ["a", "b", "c"]
                let perKey = 100
                let secondClient = db.makeClient()
                try await withRunningClient(secondClient) { secondClient in
                    try await withProducer { firstProducer in
                        try await withProducer { secondProducer in
                            var configuration = OutboxRelayConfiguration()
                            configuration.batchSize = 7  // many small batches, so the relays interleave
                            configuration.idleInterval = .milliseconds(5)
                            let relays = [
                                OutboxRelay(
                                    client: db.client, producer: firstProducer, configuration: configuration, startGate: StartGate(open: true),
                                    logger: logger),
                                OutboxRelay(
                                    client: secondClient, producer: secondProducer, configuration: configuration, startGate: StartGate(open: true),
                                    logger: logger),
                            ]
                            try await withThrowingTaskGroup(of: Void.self) { group in
                                for relay in relays { group.addTask { try await relay.run() } }
                                for sequence in 0..<perKey {
                                    try await db.client.withTransaction(logger: logger) { connection in
                                        for key in keys {
                                            try await Outbox.enqueue(
                                                countedEvent(sequence, key: key), toTopicNamed: topic, on: connection, logger: logger)
                                        }
                                    }
                                }
                                #expect(try await eventually(timeout: .seconds(60)) { try await relays[0].backlog() == 0 })
                                group.cancelAll()
                            }
                        }
                    }
                }
                let consumer = try makeConsumer(topics: [topic], group: "g-\(uniqueSuffix())")
                let received = try await collect(keys.count * perKey, from: consumer)
                let extra = try await collect(1, from: consumer, timeout: .seconds(3))
                await consumer.close()
                #expect(received.count == keys.count * perKey && extra.isEmpty)
                for key in keys {
                    let sequences = try received.filter { $0.keyString == key }.map {
                        try ReceivedEvent(bytes: $0.value).payload(as: Counted.self).sequence
                    }
                    #expect(sequences == Array(0..<perKey), "key \(key) arrives complete and in order")
                }
            }
        }
    }

    @Test("X2: a batch enqueued with one statement is published complete and in the order given")
    func batchEnqueueKeepsOrder() async throws {
        try await withTestDatabase { db in
            try await withTopic { topic in
                let events = (0..<300).map { countedEvent($0, key: "k") }
                try await db.client.withTransaction(logger: logger) { connection in
                    try await Outbox.enqueue(all: events, toTopicNamed: topic, on: connection, logger: logger)
                }
                try await withProducer { producer in
                    let relay = OutboxRelay(
                        client: db.client, producer: producer, configuration: OutboxRelayConfiguration(), startGate: StartGate(open: true),
                        logger: logger)
                    let published = try await relay.publishBatch()
                    #expect(published == 300)
                }
                let consumer = try makeConsumer(topics: [topic], group: "g-\(uniqueSuffix())")
                let received = try await collect(300, from: consumer)
                await consumer.close()
                let sequences = try received.map { try ReceivedEvent(bytes: $0.value).payload(as: Counted.self).sequence }
                #expect(sequences == Array(0..<300))
            }
        }
    }
}
