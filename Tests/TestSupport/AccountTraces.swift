import Logging
import PlatformKafka
import PostgresNIO

/// A value that names an account or its owner (its id, address, name, a device token), and what a report calls it.
public struct AccountTrace: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    public let value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    public var description: String { "\(name) (\(value))" }
}

extension TestDatabase {
    /// The columns (`table.column`) of the service's schema holding a value that contains `id`, in any table but
    /// `except`: what is left of an account after its deletion (U9). `outbox` is left out by default, because sent
    /// events stay there for audit until the relay purges them (docs/architecture.md says so).
    public func columnsMentioning(_ id: String, except: Set<String> = ["outbox"]) async throws -> [String] {
        let found = try await traces([AccountTrace("id", id)])
        return found.keys.filter { location in !except.contains(String(location.prefix { $0 != "." })) }.sorted()
    }

    /// Every column of every table in every schema of the database that holds one of `traces` in some row, as
    /// `table.column` (`schema.table.column` outside the service's own schema), with the names of the traces it
    /// holds: what an erasure left (U11). Every column is read as text, whatever its type, and compared without
    /// regard to case, so an id spelt in upper case is found as well; a `bytea` column (an outbox payload) is
    /// searched as its bytes.
    public func traces(_ traces: [AccountTrace]) async throws -> [String: Set<String>] {
        let columns = try await client.query(
            """
            SELECT c.table_schema::text, c.table_name::text, c.column_name::text, c.data_type::text, current_schema()::text
            FROM information_schema.columns c
            JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
            WHERE t.table_type = 'BASE TABLE' AND c.table_schema NOT IN ('pg_catalog', 'information_schema')
                AND c.table_schema NOT LIKE 'pg\\_%'
            ORDER BY 1, 2, 3
            """, logger: logger
        ).decode((String, String, String, String, String).self).collectAll()
        let needles = Array(Set(traces.map { $0.value.lowercased() }))
        var found: [String: Set<String>] = [:]
        for (schema, table, column, type, own) in columns {
            let name = "\"\(schema)\".\"\(table)\""
            let value = "\"\(column)\""
            let matches =
                type == "bytea"
                ? "strpos(lower(encode(\(value), 'escape')), n) > 0 OR position(convert_to(n, 'UTF8') IN \(value)) > 0"
                : "strpos(lower(\(value)::text), n) > 0"
            let sql = "SELECT n FROM unnest($1::text[]) AS n WHERE EXISTS (SELECT 1 FROM \(name) WHERE \(matches))"
            var bindings = PostgresBindings()
            bindings.append(needles)
            let held = Set(
                try await client.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).decode(String.self).collectAll())
            guard !held.isEmpty else { continue }
            let location = schema == own ? "\(table).\(column)" : "\(schema).\(table).\(column)"
            found[location] = Set(traces.filter { held.contains($0.value.lowercased()) }.map(\.name))
        }
        return found
    }
}

/// The topics among `messages` whose keys, headers or values hold one of `traces` (compared without regard to case),
/// with the names of the traces each holds.
public func traces(_ traces: [AccountTrace], in messages: [KafkaMessage]) -> [String: Set<String>] {
    var found: [String: Set<String>] = [:]
    for message in messages {
        let parts = [message.key ?? []] + message.headers.flatMap { [Array($0.name.utf8), $0.value] } + [message.value]
        let texts = parts.map { String(decoding: $0, as: UTF8.self).lowercased() }
        let held = traces.filter { trace in texts.contains { $0.contains(trace.value.lowercased()) } }.map(\.name)
        if !held.isEmpty { found[message.topic, default: []].formUnion(held) }
    }
    return found
}
