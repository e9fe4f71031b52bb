import Foundation
import PlatformCore
import PlatformKafka

/// Where the throw-away Postgres and broker of this test run are. `scripts/test.sh` starts them and sets
/// these variables. Without them every test that needs them fails with that message (the helpers that open a
/// database, a topic or a client call `check()` first), while pure unit suites run: no crash of the runner.
public struct TestInfrastructure: Sendable {
    public let postgresHost: String
    public let postgresPort: Int
    public let postgresUser: String
    public let kafkaBrokers: String
    public let buildDirectory: String?
    /// Why the infrastructure is not there, nil when it is.
    public let missing: String?

    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// Throws the reason the infrastructure variables are missing.
    public func check() throws {
        if let missing { throw Missing(description: missing) }
    }

    public static let current: TestInfrastructure = {
        let environment = EnvironmentReader()
        guard let host = environment.string("TEST_POSTGRES_HOST"),
            let port = environment.string("TEST_POSTGRES_PORT").flatMap(Int.init),
            let brokers = environment.string("TEST_KAFKA_BROKERS")
        else {
            return TestInfrastructure(
                postgresHost: "127.0.0.1", postgresPort: 1, postgresUser: "postgres", kafkaBrokers: "127.0.0.1:1",
                buildDirectory: nil,
                missing: "TEST_POSTGRES_HOST, TEST_POSTGRES_PORT and TEST_KAFKA_BROKERS are not set: run the tests with scripts/test.sh, "
                    + "which starts a throw-away PostgreSQL and Tansu broker for them")
        }
        return TestInfrastructure(
            postgresHost: host, postgresPort: port, postgresUser: environment.string("TEST_POSTGRES_USER", default: "postgres"),
            kafkaBrokers: brokers,
            buildDirectory: environment.string("TEST_BUILD_DIR"), missing: nil)
    }()

    public func broker(clientId: String = "tests") -> KafkaBrokerConfiguration {
        KafkaBrokerConfiguration(bootstrapServers: kafkaBrokers, clientId: clientId)
    }
}

/// A short random suffix for names that must be unique per test.
public func uniqueSuffix() -> String {
    String(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12))
}
