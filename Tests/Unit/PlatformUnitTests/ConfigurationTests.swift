import Foundation
import Logging
import Prometheus
import Testing
import UnitTestSupport

@testable import PlatformCore
@testable import PlatformEvents
@testable import PlatformHTTP
@testable import PlatformKafka
@testable import PlatformPostgres
@testable import PlatformRuntime

@Suite("Configuration from the environment")
struct ConfigurationTests {
    @Test("X4: defaults fit the local stack")
    func defaults() throws {
        let configuration = try PlatformConfiguration(identity: .placesImporter, environment: EnvironmentReader([:]))
        #expect(configuration.httpPort == 8083)
        #expect(configuration.postgres.schema == "places_importer")
        #expect(configuration.postgres.username == "places_importer")
        #expect(configuration.kafkaBrokers == "127.0.0.1:9092")
        #expect(configuration.consumerGroupId == "places-importer")
        #expect(configuration.startPosition == .committed)
        #expect(configuration.consumer(topics: ["t"]).properties["fetch.wait.max.ms"] == "500")
    }

    @Test("X4: KAFKA_FETCH_WAIT_MAX_MS reaches librdkafka's fetch.wait.max.ms")
    func fetchWait() throws {
        let configuration = try PlatformConfiguration(identity: .warningDetector, environment: EnvironmentReader(["KAFKA_FETCH_WAIT_MAX_MS": "50"]))
        #expect(configuration.consumer(topics: ["t"]).properties["fetch.wait.max.ms"] == "50")
    }

    @Test("X1: Kafka SASL and TLS settings reach every client (producer, consumer, admin) as librdkafka properties")
    func kafkaSecurity() throws {
        let ca = FileManager.default.temporaryDirectory.appendingPathComponent("kafka-ca-\(UUID().uuidString).pem")
        try Data("-----BEGIN CERTIFICATE-----\n".utf8).write(to: ca)
        defer { try? FileManager.default.removeItem(at: ca) }
        let configuration = try PlatformConfiguration(
            identity: .auth,
            environment: EnvironmentReader([
                "KAFKA_SECURITY_PROTOCOL": "SASL_SSL", "KAFKA_SASL_MECHANISM": "scram-sha-256", "KAFKA_SASL_USERNAME": "auth",
                "KAFKA_SASL_PASSWORD": "s3cret", "KAFKA_SSL_CA_FILE": ca.path,
            ]))
        for properties in [configuration.producer.properties, configuration.consumer(topics: ["t"]).properties, configuration.broker.properties] {
            #expect(properties["security.protocol"] == "sasl_ssl" && properties["sasl.mechanisms"] == "SCRAM-SHA-256")
            #expect(properties["sasl.username"] == "auth" && properties["sasl.password"] == "s3cret" && properties["ssl.ca.location"] == ca.path)
        }
        #expect(!"\(configuration)".contains("s3cret"), "the password is never printed")
        let plain = try PlatformConfiguration(identity: .auth, environment: EnvironmentReader([:]))
        #expect(plain.broker.properties["security.protocol"] == "plaintext" && plain.broker.properties["sasl.username"] == nil)
        for broken in [
            ["KAFKA_SECURITY_PROTOCOL": "sasl_ssl"], ["KAFKA_SECURITY_PROTOCOL": "sasl_ssl", "KAFKA_SASL_USERNAME": "u"],
            ["KAFKA_SECURITY_PROTOCOL": "tls"], ["KAFKA_SECURITY_PROTOCOL": "ssl", "KAFKA_SSL_CA_FILE": "/nonexistent.pem"],
            ["KAFKA_SSL_CA_FILE": ca.path],
            ["KAFKA_SECURITY_PROTOCOL": "sasl_plaintext", "KAFKA_SASL_MECHANISM": "GSSAPI", "KAFKA_SASL_USERNAME": "u", "KAFKA_SASL_PASSWORD": "p"],
        ] {
            #expect(throws: ConfigError.self, "\(broken)") { try PlatformConfiguration(identity: .auth, environment: EnvironmentReader(broken)) }
        }
    }

    @Test(
        "X4: a malformed value fails naming the variable",
        arguments: [
            ("HTTP_PORT", "eighty"), ("HTTP_PORT", "70000"), ("POSTGRES_PORT", "-1"), ("KAFKA_START_POSITION", "yesterday"),
            ("POSTGRES_SCHEMA", "Robert'); DROP TABLE"), ("LOG_LEVEL", "loud"), ("OUTBOX_BATCH_SIZE", "0"),
            ("KAFKA_FETCH_WAIT_MAX_MS", "0"),
        ])
    func malformedValueNamesVariable(variable: String, value: String) throws {
        #expect {
            try PlatformConfiguration(identity: .auth, environment: EnvironmentReader([variable: value]))
        } throws: { error in
            guard case .malformed(let named, let given, _) = error as? ConfigError else { return false }
            return named == variable && given == value && "\(error)".contains(variable)
        }
    }

    @Test("X1: a malformed secret is named, never shown (a key list with one typo is still the keys)")
    func malformedSecretNotEchoed() {
        let error = ConfigError.malformed(variable: "TELEMETRY_APP_KEYS", value: "weather=9f2c41d7e0;places", expected: "app=key pairs")
        #expect("\(error)".contains("TELEMETRY_APP_KEYS") && !"\(error)".contains("9f2c41d7e0"))
        let ordinary = ConfigError.malformed(variable: "HTTP_PORT", value: "eighty", expected: "a port")
        #expect("\(ordinary)".contains("eighty"))
    }

    @Test("X5: replay start positions parse")
    func startPositions() throws {
        let beginning = try PlatformConfiguration(identity: .auth, environment: EnvironmentReader(["KAFKA_START_POSITION": "beginning"]))
        #expect(beginning.startPosition == .beginning)
        let time = try PlatformConfiguration(
            identity: .auth, environment: EnvironmentReader(["KAFKA_START_POSITION": "timestamp:1700000000000"]))
        #expect(time.startPosition == .timestamp(milliseconds: 1_700_000_000_000))
    }

    @Test("X4: a missing access-token key fails start-up naming AUTH_PUBLIC_KEY")
    func missingPublicKeyNamesVariable() async throws {
        await #expect(throws: ConfigError.missing(variable: "AUTH_PUBLIC_KEY")) {
            _ = try await PlatformRuntime(
                identity: .weatherFetcher, environment: EnvironmentReader([:]), migrations: [],
                registry: PrometheusCollectorRegistry(), logger: Logger(label: "test"))
        }
    }

    @Test("X4: a public key that is not a key fails naming AUTH_PUBLIC_KEY")
    func malformedPublicKeyNamesVariable() async throws {
        await #expect {
            _ = try await AccessTokenVerifier(environment: EnvironmentReader(["AUTH_PUBLIC_KEY": "not-a-key"]))
        } throws: { error in
            guard case .malformed(let variable, _, _) = error as? ConfigError else { return false }
            return variable == "AUTH_PUBLIC_KEY"
        }
    }
}
