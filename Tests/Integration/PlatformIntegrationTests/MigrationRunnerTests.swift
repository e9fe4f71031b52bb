import Logging
import PlatformPostgres
import PostgresNIO
import TestSupport
import Testing

@Suite("Migration runner against real Postgres")
struct MigrationRunnerTests {
    let logger = Logger(label: "test")
    let migrations = [
        Migration("0001_cities", ["CREATE TABLE cities (id bigint PRIMARY KEY, name text NOT NULL)"]),
        Migration("0002_city_index", ["CREATE INDEX cities_name ON cities (name)", "ALTER TABLE cities ADD COLUMN population int"]),
    ]

    @Test("X1: migrations create the service's schema and tables; a second run is a no-op")
    func migrationsRunTwiceAreANoOp() async throws {
        try await withTestDatabase(schema: "weather_fetcher", migrate: false) { db in
            let runner = MigrationRunner(schema: "weather_fetcher", serviceMigrations: migrations)
            let first = try await runner.run(on: db.client, logger: logger)
            #expect(
                first == [
                    "0000_platform_outbox", "0000_platform_consumer_attempts", "0000_platform_outbox_trace", "0000_platform_erased_accounts",
                    "0000_platform_erased_accounts_by_time", "0000_platform_erased_accounts_keyed", "0001_cities", "0002_city_index",
                ])
            let second = try await runner.run(on: db.client, logger: logger)
            #expect(second.isEmpty)
            // Tables landed in the service's schema and are reachable unqualified through search_path.
            try await db.client.query("INSERT INTO cities (id, name, population) VALUES (1, 'Oslo', 700000)", logger: logger)
            let rows = try await db.client.query(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'weather_fetcher'", logger: logger)
            for try await count in rows.decode(Int.self) {
                #expect(count == 6)  // outbox, processed_events, consumer_attempts, erased_accounts, schema_migrations, cities
            }
        }
    }

    @Test("X1: instances starting together apply each migration once")
    func concurrentRunnersApplyOnce() async throws {
        try await withTestDatabase(schema: "svc", migrate: false) { db in
            let runner = MigrationRunner(schema: "svc", serviceMigrations: migrations)
            let second = db.makeClient()
            let applied = try await withRunningClient(second) { second in
                async let a = runner.run(on: db.client, logger: logger)
                async let b = runner.run(on: second, logger: logger)
                return try await a + b
            }
            #expect(
                applied.sorted() == [
                    "0000_platform_consumer_attempts", "0000_platform_erased_accounts", "0000_platform_erased_accounts_by_time",
                    "0000_platform_erased_accounts_keyed", "0000_platform_outbox", "0000_platform_outbox_trace", "0001_cities", "0002_city_index",
                ])
        }
    }

    @Test("X1: editing an applied migration is refused instead of silently ignored")
    func editedMigrationIsRefused() async throws {
        try await withTestDatabase(schema: "svc", migrations: migrations) { db in
            let edited = [migrations[0], Migration("0002_city_index", ["CREATE INDEX cities_name ON cities (lower(name))"])]
            await #expect(throws: MigrationRunner.Failure.self) {
                try await MigrationRunner(schema: "svc", serviceMigrations: edited).run(on: db.client, logger: logger)
            }
        }
    }
}
