import Logging
import PostgresNIO
import Shared

/// The copies of the aggregates (N6): queries read the `current` one; a rebuild fills a `building` one from
/// the beginning of the topics while the live consumer writes both, then makes it current. Batches hold a
/// share lock on the generations they write, so a switch waits for batches in flight and none writes a
/// generation after it was retired.
enum Generations {
    /// Every table with a `generation` column.
    static let tables = [
        "applied_events", "downloads_daily", "features", "feature_users", "city_views", "poll_results", "survey_service_results",
        "survey_overall_results",
    ]

    /// The generations a live batch writes (current and building), locked for the batch's transaction.
    static func live(on connection: PostgresConnection, logger: Logger) async throws -> [Int] {
        let rows = try await connection.query(
            "SELECT id FROM generations WHERE state IN ('current', 'building') ORDER BY id FOR SHARE", logger: logger)
        return try await rows.decode(Int.self).collectAll()
    }

    /// Whether `generation` is still being built (locked for the batch's transaction).
    static func isBuilding(_ generation: Int, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let rows = try await connection.query(
            "SELECT id FROM generations WHERE id = \(generation) AND state = 'building' FOR SHARE", logger: logger)
        return try await !rows.decode(Int.self).collectAll().isEmpty
    }

    /// The generation queries read.
    static func current(on client: PostgresClient, logger: Logger) async throws -> Int {
        let rows = try await client.query("SELECT id FROM generations WHERE state = 'current'", logger: logger)
        guard let id = try await rows.decode(Int.self).collectAll().first else { throw MissingReturnedRow("SELECT the current generation") }
        return id
    }

    /// A new building generation; one left by a rebuild that did not finish is dropped first.
    static func startBuilding(on client: PostgresClient, logger: Logger) async throws -> Int {
        try await client.inTransaction(logger: logger) { connection in
            let abandoned = try await connection.query(
                "UPDATE generations SET state = 'retired' WHERE state = 'building' RETURNING id", logger: logger
            ).decode(Int.self).collectAll()
            for generation in abandoned { try await deleteData(of: generation, on: connection, logger: logger) }
            let rows = try await connection.query(
                "INSERT INTO generations (id, state) SELECT coalesce(max(id), 0) + 1, 'building' FROM generations RETURNING id",
                logger: logger)
            guard let id = try await rows.decode(Int.self).collectAll().first else { throw MissingReturnedRow("INSERT INTO generations") }
            return id
        }
    }

    /// Makes `generation` current and drops the one it replaces.
    static func switchTo(_ generation: Int, on client: PostgresClient, logger: Logger) async throws {
        try await client.inTransaction(logger: logger) { connection in
            // The exclusive row locks wait for every batch holding a share lock on either generation.
            _ = try await connection.query("SELECT id FROM generations WHERE state IN ('current', 'building') FOR UPDATE", logger: logger)
            let retired = try await connection.query(
                "UPDATE generations SET state = 'retired' WHERE state = 'current' RETURNING id", logger: logger
            ).decode(Int.self).collectAll()
            let switched = try await connection.query(
                "UPDATE generations SET state = 'current', switched_at = now() WHERE id = \(generation) AND state = 'building' RETURNING id",
                logger: logger
            ).decode(Int.self).collectAll()
            guard !switched.isEmpty else { throw RebuildError("generation \(generation) is no longer being built (another rebuild began?)") }
            for old in retired { try await deleteData(of: old, on: connection, logger: logger) }
        }
    }

    static func deleteData(of generation: Int, on connection: PostgresConnection, logger: Logger) async throws {
        for table in tables {
            try await connection.query(PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE generation = $1", binds: binds(generation)), logger: logger)
        }
    }

    private static func binds(_ generation: Int) -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(generation)
        return bindings
    }
}

struct RebuildError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
