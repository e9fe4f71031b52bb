import Foundation
import Logging
import PlatformCore
import PlatformPostgres
import PostgresNIO
import TestSupport
import Testing

/// Every statement of a service has a time limit (X3): no request, least of all an anonymous one, can hold a
/// Postgres backend for long. Migrations lift it for their own transaction.
@Suite("Postgres statement timeout")
struct PostgresStatementTimeoutTests {
    @Test("X3: a service's statements are cancelled at POSTGRES_STATEMENT_TIMEOUT_MS (one minute unless set), migrations are not")
    func statementTimeout() async throws {
        try await withTestDatabase { db in
            let logger = Logger(label: "statement-timeout")
            let base = db.configuration
            func configuration(_ extra: [String: String]) throws -> PostgresConfiguration {
                try PostgresConfiguration(
                    environment: EnvironmentReader(
                        [
                            "POSTGRES_HOST": base.host, "POSTGRES_PORT": "\(base.port)", "POSTGRES_USER": base.username,
                            "POSTGRES_DATABASE": base.database,
                        ].merging(extra) { $1 }),
                    defaultSchema: "svc")
            }
            try await withRunningClient(try configuration([:]).makeClient(logger: logger)) { client in
                let shown = try await client.query("SHOW statement_timeout", logger: logger).decode(String.self).collectAll()
                #expect(shown == ["1min"])
            }
            try await withRunningClient(try configuration(["POSTGRES_STATEMENT_TIMEOUT_MS": "200"]).makeClient(logger: logger)) { client in
                await #expect(throws: PSQLError.self) {
                    _ = try await client.query("SELECT pg_sleep(2)", logger: logger).collectAll()
                }
                // A migration that takes longer than the service's limit still completes.
                let slow = Migration("slow", ["SELECT pg_sleep(0.5)"])
                let applied = try await MigrationRunner(schema: "slowmig", serviceMigrations: [slow]).run(on: client, logger: logger)
                #expect(applied.contains("slow"))
            }
            try await withRunningClient(try configuration(["POSTGRES_STATEMENT_TIMEOUT_MS": "0"]).makeClient(logger: logger)) { client in
                let shown = try await client.query("SHOW statement_timeout", logger: logger).decode(String.self).collectAll()
                #expect(shown == ["0"])
            }
        }
    }
}
