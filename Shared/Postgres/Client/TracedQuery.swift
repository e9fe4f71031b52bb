import Logging
import PlatformCore
import PostgresNIO
import ServiceContextModule
import Tracing

/// Postgres statements as client spans of the trace they run in (X4). PostgresNIO has no tracing of its
/// own yet, so the services' statements go through these instead of `query`. A statement outside any trace
/// (the relay's polling, the schedulers' claims) makes no span: a root span per poll would bury the traces
/// that matter. The span covers the statement until its first rows are ready; the parameterised text is an
/// attribute, the bound values never are.
extension PostgresConnection {
    @discardableResult
    public func tracedQuery(
        _ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line
    ) async throws -> PostgresRowSequence {
        try await StatementSpan.around(query) { try await self.query(query, logger: logger, file: file, line: line) }
    }
}

extension PostgresClient {
    @discardableResult
    public func tracedQuery(
        _ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line
    ) async throws -> PostgresRowSequence {
        try await StatementSpan.around(query) { try await self.query(query, logger: logger, file: file, line: line) }
    }
}

extension PostgresClient {
    /// `execute` of a prepared statement, as a client span of the current trace (see `tracedQuery`).
    public func tracedExecute<Statement: PostgresPreparedStatement, Row>(
        _ statement: Statement, logger: Logger, file: String = #fileID, line: Int = #line
    ) async throws -> AsyncThrowingMapSequence<PostgresRowSequence, Row> where Row == Statement.Row {
        try await StatementSpan.around(sql: Statement.sql) {
            try await self.execute(statement, logger: logger, file: file, line: line)
        }
    }
}

enum StatementSpan {
    static func around<Rows>(_ query: PostgresQuery, _ body: () async throws -> Rows) async throws -> Rows {
        try await around(sql: query.sql, body)
    }

    static func around<Rows>(sql: String, _ body: () async throws -> Rows) async throws -> Rows {
        guard PlatformTracing.currentTraceParent() != nil else { return try await body() }
        let summary = Self.summary(of: sql)
        return try await withSpan(summary.name, ofKind: .client) { span in
            span.attributes["db.system.name"] = "postgresql"
            span.attributes["db.operation.name"] = summary.operation
            if let table = summary.table { span.attributes["db.collection.name"] = table }
            span.attributes["db.query.text"] = sql
            return try await body()
        }
    }

    /// The statement's verb and, for a plain INSERT, UPDATE, DELETE or SELECT, the table it names first
    /// ("INSERT outbox"), as OpenTelemetry's database conventions name a span.
    static func summary(of sql: String) -> (name: String, operation: String, table: String?) {
        let words = sql.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let verb = words.first?.uppercased() else { return ("postgresql", "", nil) }
        func word(after keyword: String) -> String? {
            guard let index = words.firstIndex(where: { $0.uppercased() == keyword }), index + 1 < words.count else { return nil }
            let name = words[index + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
            return name.isEmpty ? nil : String(name)
        }
        let table: String? =
            switch verb {
            case "INSERT": word(after: "INTO")
            case "UPDATE": words.count > 1 ? word(after: "UPDATE") : nil
            case "DELETE", "SELECT": word(after: "FROM")
            default: nil
            }
        return (table.map { "\(verb) \($0)" } ?? verb, verb, table)
    }
}
