import Logging
import PostgresNIO

extension TestDatabase {
    /// The columns (`table.column`) of the service's schema holding a value that contains `id`, in any table but
    /// `except`: what is left of an account after its deletion (issue 29). Text, uuid and JSON columns are read as
    /// text; `outbox` is left out by default, because sent events stay there for audit until the relay purges them
    /// (docs/architecture.md says so).
    public func columnsMentioning(_ id: String, except: Set<String> = ["outbox"]) async throws -> [String] {
        let columns = try await client.query(
            """
            SELECT table_name::text, column_name::text FROM information_schema.columns
            WHERE table_schema = current_schema() AND data_type IN ('text', 'uuid', 'jsonb', 'json', 'character varying', 'ARRAY')
            ORDER BY 1, 2
            """, logger: logger
        ).decode((String, String).self).collectAll()
        var found: [String] = []
        for (table, column) in columns where !except.contains(table) {
            let sql = "SELECT count(*)::int FROM \"\(table)\" WHERE \"\(column)\"::text ILIKE '%' || $1 || '%'"
            var bindings = PostgresBindings()
            bindings.append(id.lowercased())
            let count =
                try await client.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).decode(Int.self).collectAll().first ?? 0
            if count > 0 { found.append("\(table).\(column)") }
        }
        return found
    }
}
