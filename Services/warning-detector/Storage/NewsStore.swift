import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// Weather news (A6): admins publish, everyone lists newest first and opens one.
struct NewsStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    private static let columns = "id, name, body, happened_at, time_zone, location, published_at"
    private typealias Row = (UUID, String, String, Date, String, String, Date)

    private static func decode(_ row: Row) -> NewsItem {
        NewsItem(id: row.0, name: row.1, body: row.2, happenedAt: row.3, timeZone: row.4, location: row.5, publishedAt: row.6)
    }

    func publish(name: String, body: String, happenedAt: Date, timeZone: String, location: String, by admin: String) async throws -> NewsItem {
        let rows = try await client.tracedQuery(
            """
            INSERT INTO news (id, name, body, happened_at, time_zone, location, published_by)
            VALUES (\(UUID()), \(name), \(body), \(happenedAt), \(timeZone), \(location), \(admin))
            RETURNING \(unescaped: Self.columns)
            """,
            logger: logger)
        guard let item = try await rows.decode(Row.self).collectAll().map(Self.decode).first else {
            throw MissingReturnedRow("news insert")
        }
        return item
    }

    func publish(_ draft: NewsDraft, by admin: String) async throws -> NewsItem {
        try await publish(
            name: draft.name, body: draft.body, happenedAt: draft.happenedAt, timeZone: draft.timeZone, location: draft.location, by: admin)
    }

    /// Newest first (by when it happened, then when it was published); `limit` + 1 tells whether more follow.
    func list(limit: Int, offset: Int) async throws -> [NewsItem] {
        try await client.tracedQuery(
            """
            SELECT \(unescaped: Self.columns) FROM news
            ORDER BY happened_at DESC, published_at DESC, id LIMIT \(limit) OFFSET \(offset)
            """,
            logger: logger
        ).decode(Row.self).collectAll().map(Self.decode)
    }

    func find(_ id: UUID) async throws -> NewsItem? {
        try await client.tracedQuery("SELECT \(unescaped: Self.columns) FROM news WHERE id = \(id)", logger: logger)
            .decode(Row.self).collectAll().map(Self.decode).first
    }
}
