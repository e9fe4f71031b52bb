import Logging
import Prometheus
@testable import Shared
import Testing
import TestSupport

@Suite("Configuration from the environment")
struct ConfigurationTests {
    @Test("X4: defaults fit the local stack")
    func test_X4_defaults() throws {
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
    func test_X4_fetchWait() throws {
        let configuration = try PlatformConfiguration(identity: .warningDetector, environment: EnvironmentReader(["KAFKA_FETCH_WAIT_MAX_MS": "50"]))
        #expect(configuration.consumer(topics: ["t"]).properties["fetch.wait.max.ms"] == "50")
    }

    @Test("X4: a malformed value fails naming the variable", arguments: [
        ("HTTP_PORT", "eighty"), ("HTTP_PORT", "70000"), ("POSTGRES_PORT", "-1"), ("KAFKA_START_POSITION", "yesterday"),
        ("POSTGRES_SCHEMA", "Robert'); DROP TABLE"), ("LOG_LEVEL", "loud"), ("OUTBOX_BATCH_SIZE", "0"),
        ("KAFKA_FETCH_WAIT_MAX_MS", "0"),
    ])
    func test_X4_malformedValueNamesVariable(variable: String, value: String) throws {
        #expect {
            try PlatformConfiguration(identity: .auth, environment: EnvironmentReader([variable: value]))
        } throws: { error in
            guard case .malformed(let named, let given, _) = error as? ConfigError else { return false }
            return named == variable && given == value && "\(error)".contains(variable)
        }
    }

    @Test("X5: replay start positions parse")
    func test_X5_startPositions() throws {
        let beginning = try PlatformConfiguration(identity: .auth, environment: EnvironmentReader(["KAFKA_START_POSITION": "beginning"]))
        #expect(beginning.startPosition == .beginning)
        let time = try PlatformConfiguration(
            identity: .auth, environment: EnvironmentReader(["KAFKA_START_POSITION": "timestamp:1700000000000"]))
        #expect(time.startPosition == .timestamp(milliseconds: 1_700_000_000_000))
    }

    @Test("X4: a missing access-token key fails start-up naming AUTH_PUBLIC_KEY")
    func test_X4_missingPublicKeyNamesVariable() async throws {
        await #expect(throws: ConfigError.missing(variable: "AUTH_PUBLIC_KEY")) {
            _ = try await PlatformRuntime(
                identity: .weatherFetcher, environment: EnvironmentReader([:]), migrations: [],
                registry: PrometheusCollectorRegistry(), logger: Logger(label: "test"))
        }
    }

    @Test("X4: a public key that is not a key fails naming AUTH_PUBLIC_KEY")
    func test_X4_malformedPublicKeyNamesVariable() async throws {
        await #expect {
            _ = try await AccessTokenVerifier(environment: EnvironmentReader(["AUTH_PUBLIC_KEY": "not-a-key"]))
        } throws: { error in
            guard case .malformed(let variable, _, _) = error as? ConfigError else { return false }
            return variable == "AUTH_PUBLIC_KEY"
        }
    }
}
