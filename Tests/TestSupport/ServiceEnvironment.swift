import UnitTestSupport

/// Where a service finds its database, its broker, the public half of the token key and the key of its erased
/// accounts: the settings every service a test, a fault scenario or a bench starts reads, written here once. Each caller adds what its case
/// needs (ports, a consumer group, provider addresses) on top.
public struct ServiceEnvironment: Sendable {
    public var postgresHost: String
    public var postgresPort: Int
    public var postgresUser: String
    public var database: String
    public var brokers: String
    public var publicKey: String

    public init(postgresHost: String, postgresPort: Int, postgresUser: String, database: String, brokers: String, publicKey: String) {
        self.postgresHost = postgresHost
        self.postgresPort = postgresPort
        self.postgresUser = postgresUser
        self.database = database
        self.brokers = brokers
        self.publicKey = publicKey
    }

    /// A test database, the test broker unless another is named, and the test key.
    public init(_ db: TestDatabase, tokens: TestTokens, brokers: String? = nil) {
        self.init(
            postgresHost: db.configuration.host, postgresPort: db.configuration.port, postgresUser: db.configuration.username,
            database: db.configuration.database,
            brokers: brokers ?? TestInfrastructure.current.kafkaBrokers, publicKey: tokens.publicKeyBase64URL)
    }

    /// The variables, on an HTTP port of the caller's (`"0"`: any free one), with `extra` added or overriding.
    public func variables(httpPort: String = "0", _ extra: [String: String] = [:]) -> [String: String] {
        [
            "HTTP_PORT": httpPort, "POSTGRES_HOST": postgresHost, "POSTGRES_PORT": "\(postgresPort)", "POSTGRES_USER": postgresUser,
            "POSTGRES_DATABASE": database, "KAFKA_BROKERS": brokers, "AUTH_PUBLIC_KEY": publicKey,
            "ERASED_ACCOUNTS_KEY": TestSecrets.erasedAccountsKey,
        ].merging(extra) { $1 }
    }
}
