import Foundation
import Shared

/// Where the throw-away Postgres and broker of this test run are. `scripts/test.sh` starts them and sets
/// these variables; without them the tests fail loudly instead of skipping.
public struct TestInfrastructure: Sendable {
    public let postgresHost: String
    public let postgresPort: Int
    public let postgresUser: String
    public let kafkaBrokers: String
    public let tansuBinary: String?
    public let buildDirectory: String?

    public static let current: TestInfrastructure = {
        let environment = EnvironmentReader()
        guard let host = environment.string("TEST_POSTGRES_HOST"),
            let port = environment.string("TEST_POSTGRES_PORT").flatMap(Int.init),
            let brokers = environment.string("TEST_KAFKA_BROKERS")
        else {
            fatalError(
                "TEST_POSTGRES_HOST, TEST_POSTGRES_PORT and TEST_KAFKA_BROKERS are not set: run the tests with scripts/test.sh, "
                    + "which starts a throw-away PostgreSQL and Tansu broker for them")
        }
        return TestInfrastructure(
            postgresHost: host, postgresPort: port, postgresUser: environment.string("TEST_POSTGRES_USER", default: "postgres"),
            kafkaBrokers: brokers, tansuBinary: environment.string("TANSU_BIN"),
            buildDirectory: environment.string("TEST_BUILD_DIR"))
    }()

    public func broker(clientId: String = "tests") -> KafkaBrokerConfiguration {
        KafkaBrokerConfiguration(bootstrapServers: kafkaBrokers, clientId: clientId)
    }
}

/// A short random suffix for names that must be unique per test.
public func uniqueSuffix() -> String {
    String(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12))
}
