import Foundation
import Logging
import PlatformHTTP
import PlatformPostgres
import PostgresNIO

/// The texts shared with a link (W10): each gets a share id for its public page. The same text of a city shared
/// again keeps its id (and is shown for another `lifetime`), so sharing the unchanged weather twice adds nothing.
struct SharedTextStore: Sendable {
    let client: PostgresClient
    let lifetime: Duration
    let logger: Logger

    struct Kept: Sendable, Equatable {
        var cityId: Int
        var kind: String
        var text: String
        var sharedAt: Date
    }

    /// How long past its lifetime a page still answers 410 (expired) rather than 404, before it is removed.
    static let keptAfterExpiry: Duration = .seconds(90 * 86_400)

    /// The share id of `text`, kept now; pages long past their lifetime are removed now and then on the way.
    func keep(cityId: Int, kind: String, text: String) async throws -> String {
        let seconds = Double((lifetime + Self.keptAfterExpiry).components.seconds)
        return try await client.inTransaction(logger: logger) { connection in
            // One share in a hundred clears the long-expired pages: enough to keep the table to what is shown.
            if Int.random(in: 0..<100) == 0 {
                try await connection.tracedQuery(
                    "DELETE FROM shared_texts WHERE shared_at < now() - make_interval(secs => \(seconds))", logger: logger)
            }
            let rows = try await connection.tracedQuery(
                """
                INSERT INTO shared_texts (id, city_id, kind, text) VALUES (\(ShareId.make()), \(cityId), \(kind), \(text))
                ON CONFLICT (city_id, kind, text) DO UPDATE SET shared_at = now()
                RETURNING id
                """, logger: logger)
            guard let id = try await rows.decode(String.self).collectAll().first else { throw MissingReturnedRow("shared text upsert") }
            return id
        }
    }

    /// The text behind a share id, however old (the page says when it has expired), or nil.
    func shared(_ id: String) async throws -> Kept? {
        try await client.tracedQuery(
            "SELECT city_id, kind, text, shared_at FROM shared_texts WHERE id = \(id)", logger: logger
        ).decode((Int, String, String, Date).self).collectAll().first.map { Kept(cityId: $0.0, kind: $0.1, text: $0.2, sharedAt: $0.3) }
    }

    func hasExpired(_ shared: Kept, now: Date = Date()) -> Bool {
        shared.sharedAt.addingTimeInterval(Double(lifetime.components.seconds)) < now
    }
}
