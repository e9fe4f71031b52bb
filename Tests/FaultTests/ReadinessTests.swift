import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import Prometheus
import TestSupport
import Testing

@testable import AppointmentBooker

/// `/ready` as an orchestrator reads it (X4): a service on a Postgres and a broker of the test's own answers
/// 503 naming the check that fails while either is down, and ready again once it is back; and names a consumed
/// topic that does not exist, since no client creates one, or that has fewer partitions than the catalogue's.
/// A broker and a Postgres restart are faults, so this runs with the fault suite; it waits out the consumer's
/// real intervals (the missing-topic rebuild, the partition-count look), about a minute.
@Suite("Readiness names what is down", .serialized)
struct ReadinessTests {
    @Test("X4: /ready is 503 naming kafka while the broker is down and postgres while the database is down; ready again after")
    func readinessNamesTheOutage() async throws {
        let tokens = try TestTokens()
        let cluster = try PostgresCluster()
        defer { cluster.destroy() }
        let broker = BrokerProcess(port: freePort())
        try broker.start()
        defer { broker.stop() }
        let base = ServiceEnvironment(
            postgresHost: "127.0.0.1", postgresPort: cluster.port, postgresUser: "postgres", database: "postgres", brokers: broker.address,
            publicKey: tokens.publicKeyBase64URL)
        let environment = EnvironmentReader(base.variables(["READING_KEY": TestSecrets.readingKey, "LOG_LEVEL": "critical"]))
        let app = try await buildApplication(environment: environment, registry: PrometheusCollectorRegistry(), logger: Logger(label: "readiness"))
        try await app.test(.live) { client in
            @Sendable func ready() async throws -> (HTTPResponse.Status, String) {
                try await client.execute(uri: "/ready", method: .get) { ($0.status, String(buffer: $0.body)) }
            }
            // No client creates a topic (X5): until an operator does, /ready names the missing one.
            #expect(
                try await eventually(timeout: .seconds(30)) {
                    let (status, body) = try await ready()
                    return status == .serviceUnavailable && body.contains("missing") && body.contains(TopicCatalogue.users.name)
                })
            // Made with fewer partitions than the catalogue gives them (a broker's default, say): /ready names one.
            let catalogue = TopicCatalogue.all.map(\.name)
            try await createTopics(catalogue, partitions: 2, brokers: broker.address)
            #expect(
                try await eventually(timeout: .seconds(60)) {
                    let (status, body) = try await ready()
                    return status == .serviceUnavailable && body.contains("has 2 partitions, the catalogue gives it 6")
                })
            broker.stop()
            #expect(
                try await eventually(timeout: .seconds(30)) {
                    let (status, body) = try await ready()
                    return status == .serviceUnavailable && body.contains("kafka") && body.contains("broker unreachable")
                })
            try broker.start()
            // The memory broker came back empty: the operator's stack script re-creates the topics, as the catalogue says.
            for topic in TopicCatalogue.all {
                try await createTopics([topic.name], partitions: topic.partitions, brokers: broker.address)
            }
            #expect(try await eventually(timeout: .seconds(60)) { try await ready().0 == .ok })
            try cluster.stop()
            #expect(
                try await eventually(timeout: .seconds(30)) {
                    let (status, body) = try await ready()
                    return status == .serviceUnavailable && body.contains("\"postgres\"") && !body.contains("\"postgres\":\"ok\"")
                })
            try cluster.start()
            #expect(try await eventually(timeout: .seconds(60)) { try await ready().0 == .ok })
        }
    }
}
