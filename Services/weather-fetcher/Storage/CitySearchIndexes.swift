import Logging
import PlatformPostgres
import PostgresNIO

/// The trigram indexes that serve `contains` searches (W1, X3). Filling an empty catalogue with them in place took
/// twice as long as without (about 60 s instead of 30 s for 34,000 cities and 295,000 other names: each row's
/// trigrams go into the index one by one), so the first import drops them and builds them once at its end.
enum CitySearchIndexes {
    /// The operator class is named with the extension's own schema: a database may have pg_trgm elsewhere
    /// (public, say), off this service's search_path.
    static let create = """
        DO $$
        DECLARE home text := (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                              WHERE e.extname = 'pg_trgm');
        BEGIN
            EXECUTE format('CREATE INDEX cities_by_search_key_trigrams ON cities USING gin (search_key %I.gin_trgm_ops)', home);
            EXECUTE format(
                'CREATE INDEX city_alternate_names_by_search_key_trigrams ON city_alternate_names USING gin (search_key %I.gin_trgm_ops)',
                home);
        END $$
        """

    static let drop = "DROP INDEX IF EXISTS cities_by_search_key_trigrams, city_alternate_names_by_search_key_trigrams"

    /// Runs `fill` without the indexes when the catalogue is empty (the first import), then builds them.
    static func aroundFirstImport(on connection: PostgresConnection, logger: Logger, _ fill: () async throws -> Void) async throws {
        let empty =
            try await connection.tracedQuery("SELECT NOT EXISTS (SELECT 1 FROM cities)", logger: logger)
            .decode(Bool.self).collectAll().first ?? false
        if empty { try await connection.tracedQuery(PostgresQuery(unsafeSQL: drop), logger: logger) }
        try await fill()
        if empty { try await connection.tracedQuery(PostgresQuery(unsafeSQL: create), logger: logger) }
    }
}
