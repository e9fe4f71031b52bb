import Logging
import PostgresNIO
import Shared

/// A fresh database for one test, with the platform schema migrated, dropped afterwards.
public struct TestDatabase: Sendable {
    public let client: PostgresClient
    public let configuration: PostgresConfiguration
    public let logger: Logger

    /// A second client on the same database (a second service instance, say), run by the caller.
    public func makeClient() -> PostgresClient { configuration.makeClient(logger: logger) }
}

/// Creates database `t_<random>`, runs `body` with a running client whose search_path is `schema`, then drops it.
public func withTestDatabase<Result: Sendable>(
    schema: String = "svc",
    migrations: [Migration] = [],
    migrate: Bool = true,
    _ body: @Sendable (TestDatabase) async throws -> Result
) async throws -> Result {
    let infrastructure = TestInfrastructure.current
    try infrastructure.check()
    let logger = Logger(label: "test-db")
    let name = "t_\(uniqueSuffix())"
    let admin = PostgresConfiguration(
        host: infrastructure.postgresHost, port: infrastructure.postgresPort, username: infrastructure.postgresUser,
        password: nil, database: "postgres", schema: "public", maxConnections: 2)
    try await withRunningClient(admin.makeClient(logger: logger)) { client in
        try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
    }
    let configuration = PostgresConfiguration(
        host: infrastructure.postgresHost, port: infrastructure.postgresPort, username: infrastructure.postgresUser,
        password: nil, database: name, schema: schema, maxConnections: 8)
    let result: Result
    do {
        result = try await withRunningClient(configuration.makeClient(logger: logger)) { client in
            if migrate {
                try await MigrationRunner(schema: schema, serviceMigrations: migrations).run(on: client, logger: logger)
            }
            return try await body(TestDatabase(client: client, configuration: configuration, logger: logger))
        }
    } catch {
        try? await dropDatabase(name, admin: admin, logger: logger)
        throw error
    }
    try await dropDatabase(name, admin: admin, logger: logger)
    return result
}

private func dropDatabase(_ name: String, admin: PostgresConfiguration, logger: Logger) async throws {
    try await withRunningClient(admin.makeClient(logger: logger)) { client in
        try await client.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: logger)
    }
}
