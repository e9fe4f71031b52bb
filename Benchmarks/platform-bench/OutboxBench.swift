import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformKafka
import PlatformPostgres
import PostgresNIO
import TestSupport

/// Outbox relay throughput: rows committed to the outbox, then timed until the relay has every one acknowledged
/// by the broker and marked sent.
struct OutboxBench {
    let brokers: String
    let postgresHost: String
    let postgresPort: Int
    let postgresUser: String
    let count: Int

    func run() async throws -> Double {
        let logger = Logger(label: "bench")
        let databases = DatabaseServer(host: postgresHost, port: postgresPort, user: postgresUser)
        let database = try await databases.createDatabase(prefix: "bench")
        let configuration = databases.configuration(database: database, schema: "bench")
        let topic = "bench.outbox.\(UUID().uuidString.prefix(8).lowercased())"
        let kafkaAdmin = try KafkaAdmin(broker: KafkaBrokerConfiguration(bootstrapServers: brokers, clientId: "bench"))
        try await kafkaAdmin.createTopics([KafkaTopicSpec(name: topic, partitions: 3)])

        let rate = try await withRunningClient(configuration.makeClient(logger: logger)) { client -> Double in
            try await MigrationRunner(schema: "bench", serviceMigrations: []).run(on: client, logger: logger)
            try await fillOutbox(client, topic: topic, logger: logger)
            let producer = try KafkaProducer(
                configuration: KafkaProducerConfiguration(broker: KafkaBrokerConfiguration(bootstrapServers: brokers, clientId: "bench")),
                logger: logger)
            let relay = OutboxRelay(
                client: client, producer: producer, configuration: OutboxRelayConfiguration(), startGate: StartGate(open: true),
                logger: logger)
            let start = ContinuousClock.now
            var published = 0
            while published < count {
                published += try await relay.publishBatch()
            }
            let elapsed = ContinuousClock.now - start
            try await producer.close()
            return Double(published) / elapsed.seconds
        }
        try await databases.dropDatabase(database)
        return rate
    }

    /// Real envelopes of about 300 bytes, written in one transaction per 5,000 rows.
    private func fillOutbox(_ client: PostgresClient, topic: String, logger: Logger) async throws {
        var written = 0
        while written < count {
            let batch = min(5_000, count - written)
            try await client.withTransaction(logger: logger) { connection in
                for index in written..<(written + batch) {
                    let envelope = EventEnvelope(
                        type: EventType("bench.event"), producer: "bench", key: "key-\(index % 100)",
                        payload: ["sequence": "\(index)", "note": String(repeating: "n", count: 100)])
                    try await Outbox.enqueue(envelope, toTopicNamed: topic, on: connection, logger: logger)
                }
            }
            written += batch
        }
    }
}
