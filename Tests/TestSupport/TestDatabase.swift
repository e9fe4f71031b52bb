import Logging
import PlatformPostgres
import PostgresNIO

/// A fresh database for one test, with the platform schema migrated, dropped afterwards.
public struct TestDatabase: Sendable {
    public let client: PostgresClient
    public let configuration: PostgresConfiguration
    public let logger: Logger

    /// A second client on the same database (a second service instance, say), run by the caller.
    public func makeClient() -> PostgresClient { configuration.makeClient(logger: logger) }

    /// How many rows `sql` counts (its first column of its first row).
    public func count(_ sql: String) async throws -> Int {
        let rows = try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    /// The first column of the first row of `sql`, as text (nil for SQL NULL or no row).
    public func text(_ sql: String) async throws -> String? {
        for try await value in try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(String?.self) { return value }
        return nil
    }
}

/// Creates database `t_<random>`, runs `body` with a running client whose search_path is `schema`, then drops it.
///
/// With `migrate` the database is a copy of a template migrated once per test process with the same schema and
/// migrations (the platform's and `migrations`), so a service started on it finds every migration applied;
/// without, it is empty (for tests of migrating itself).
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
    let admin = DatabaseServer(infrastructure: infrastructure, logger: logger)
    let template = migrate ? try await TemplateDatabases.shared.template(schema: schema, migrations: migrations, server: admin) : nil
    try await admin.createDatabase(name, template: template)
    let configuration = admin.configuration(database: name, schema: schema, maxConnections: 8)
    let result: Result
    do {
        result = try await withRunningClient(configuration.makeClient(logger: logger)) { client in
            try await body(TestDatabase(client: client, configuration: configuration, logger: logger))
        }
    } catch {
        try? await admin.dropDatabase(name)
        throw error
    }
    try await admin.dropDatabase(name)
    return result
}

/// A cluster's `postgres` database, from which databases are made and dropped: the test run's throw-away cluster,
/// and the bench's and the fault suite's, which are given theirs.
public struct DatabaseServer: Sendable {
    public let host: String
    public let port: Int
    public let user: String
    let logger: Logger

    public init(host: String, port: Int, user: String, logger: Logger = Logger(label: "test-db")) {
        (self.host, self.port, self.user, self.logger) = (host, port, user, logger)
    }

    init(infrastructure: TestInfrastructure, logger: Logger) {
        self.init(host: infrastructure.postgresHost, port: infrastructure.postgresPort, user: infrastructure.postgresUser, logger: logger)
    }

    /// How a client reaches `database` as the cluster's user, with `schema` as its search path.
    public func configuration(database: String, schema: String, maxConnections: Int = 10) -> PostgresConfiguration {
        PostgresConfiguration(
            host: host, port: port, username: user, password: nil, database: database, schema: schema, maxConnections: maxConnections)
    }

    func execute(_ sql: String) async throws {
        try await withRunningClient(configuration(database: "postgres", schema: "public", maxConnections: 2).makeClient(logger: logger)) {
            client in
            try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        }
    }

    /// A new empty database named `<prefix>_<random>`, for a service to migrate as it starts.
    public func createDatabase(prefix: String) async throws -> String {
        let name = "\(prefix)_\(uniqueSuffix())"
        try await createDatabase(name, template: nil)
        return name
    }

    /// A template is refused while a connection to it is still closing; that lasts milliseconds, so it tries again.
    func createDatabase(_ name: String, template: String?) async throws {
        let sql = "CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0)" } ?? "")
        var attempt = 0
        while true {
            do {
                return try await execute(sql)
            } catch let error as PSQLError where error.sqlState == .objectInUse && attempt < 50 {
                attempt += 1
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    public func dropDatabase(_ name: String) async throws {
        try await execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}

/// Migrated template databases, made once per test process for each schema and migration list: copying one
/// costs the server a file copy, where migrating every test's database again (PostGIS alone took about 0.45 s
/// of server CPU per database) was half of the suite's Postgres time.
actor TemplateDatabases {
    static let shared = TemplateDatabases()
    private var made: [String: Task<String, any Error>] = [:]

    func template(schema: String, migrations: [Migration], server: DatabaseServer) async throws -> String {
        let key = ([schema] + migrations.flatMap { [$0.id] + $0.statements }).joined(separator: "\u{1F}")
        if let task = made[key] { return try await task.value }
        let task = Task { try await Self.make(schema: schema, migrations: migrations, server: server) }
        made[key] = task
        do {
            return try await task.value
        } catch {
            // Not kept: the next test of this schema tries again rather than failing on this failure.
            made[key] = nil
            throw error
        }
    }

    private static func make(schema: String, migrations: [Migration], server: DatabaseServer) async throws -> String {
        let name = "template_\(uniqueSuffix())"
        try await server.createDatabase(name, template: nil)
        let configuration = server.configuration(database: name, schema: schema, maxConnections: 1)
        try await withRunningClient(configuration.makeClient(logger: server.logger)) { client in
            _ = try await MigrationRunner(schema: schema, serviceMigrations: migrations).run(on: client, logger: server.logger)
        }
        return name
    }
}
