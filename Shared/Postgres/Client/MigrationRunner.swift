import Logging
import PostgresNIO

/// Applies a service's migrations at start-up: creates its schema, then runs each migration not yet recorded
/// in `schema_migrations`, all in one transaction (all or nothing). A transaction-scoped advisory lock makes concurrent
/// starts of several instances safe: one migrates, the others wait and then find nothing to do.
public struct MigrationRunner: Sendable {
    /// Platform tables every service has (outbox, processed events) come first.
    public static let platformMigrations: [Migration] = OutboxSchema.migrations + AccountErasureSchema.migrations

    let schema: String
    let migrations: [Migration]

    public init(schema: String, serviceMigrations: [Migration]) {
        self.schema = schema
        self.migrations = Self.platformMigrations + serviceMigrations
    }

    public enum Failure: Error, CustomStringConvertible {
        case changedAfterApply(id: String)
        case duplicateId(String)
        case invalidSchema(String)

        public var description: String {
            switch self {
            case .changedAfterApply(let id): "migration \(id) was changed after it was applied; add a new migration instead"
            case .duplicateId(let id): "migration id \(id) is used twice"
            case .invalidSchema(let name): "schema name \(name) is not a plain SQL identifier"
            }
        }
    }

    /// Runs pending migrations; returns the ids it applied (empty when the schema was up to date).
    @discardableResult
    public func run(on client: PostgresClient, logger: Logger) async throws -> [String] {
        guard SQLIdentifier.isValid(schema) else { throw Failure.invalidSchema(schema) }
        var seen: Set<String> = []
        for migration in migrations where !seen.insert(migration.id).inserted { throw Failure.duplicateId(migration.id) }

        return try await client.inTransaction(logger: logger) { connection in
            // A migration may build an index over a large table: the service's statement_timeout is for requests.
            try await connection.tracedQuery("SET LOCAL statement_timeout = 0", logger: logger)
            // One lock per schema; held until this transaction ends.
            try await connection.tracedQuery("SELECT pg_advisory_xact_lock(hashtext(\(schema)))", logger: logger)
            // Create the schema only when missing: a service role that owns its schema but may not create
            // schemas in the database (the stack and compose set it up so) is refused even IF NOT EXISTS.
            let existing = try await connection.tracedQuery(
                "SELECT count(*) FROM pg_namespace WHERE nspname = \(schema)", logger: logger)
            var schemaExists = false
            for try await count in existing.decode(Int.self) { schemaExists = count > 0 }
            if !schemaExists {
                try await connection.tracedQuery(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"), logger: logger)
            }
            try await connection.tracedQuery(
                PostgresQuery(
                    unsafeSQL: """
                        CREATE TABLE IF NOT EXISTS \(schema).schema_migrations (
                            id text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                        """), logger: logger)
            var applied: [String: String] = [:]
            let rows = try await connection.tracedQuery(
                PostgresQuery(unsafeSQL: "SELECT id, checksum FROM \(schema).schema_migrations"), logger: logger)
            for try await (id, checksum) in rows.decode((String, String).self) { applied[id] = checksum }

            var ran: [String] = []
            for migration in migrations {
                if let checksum = applied[migration.id] {
                    guard checksum == migration.checksum else { throw Failure.changedAfterApply(id: migration.id) }
                    continue
                }
                try await connection.tracedQuery(PostgresQuery(unsafeSQL: "SET LOCAL search_path TO \(schema)"), logger: logger)
                for statement in migration.statements {
                    try await connection.tracedQuery(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.tracedQuery(
                    "INSERT INTO \(unescaped: schema).schema_migrations (id, checksum) VALUES (\(migration.id), \(migration.checksum))",
                    logger: logger)
                logger.info("applied migration", metadata: ["schema": "\(schema)", "migration": "\(migration.id)"])
                ran.append(migration.id)
            }
            return ran
        }
    }
}
