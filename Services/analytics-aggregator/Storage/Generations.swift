import Logging
import PlatformPostgres
import PostgresNIO

/// The copies of the aggregates (N6): queries read the `current` one; a rebuild fills a `building` one from
/// the beginning of the topics while the live consumer writes both, then makes it current. Batches hold a
/// shared transaction lock (an advisory one: no row is written to take it) while they write; a switch takes
/// it exclusively, so it waits for batches in flight and none writes a generation after it was retired. The
/// rows of a retired generation are deleted after the switch, outside the lock.
enum Generations {
    /// Every table with a `generation` column.
    static let tables = [
        "applied_events", "downloads_daily", "features", "feature_users", "city_views", "poll_results", "survey_service_results",
        "survey_overall_results", "generation_reads", "survey_reasons", "feature_uses_daily", "city_views_daily",
        "poll_results_daily", "survey_service_daily", "survey_overall_daily",
    ]

    /// The advisory lock batches share and switches take alone ("analytics/generations").
    static let switchLock: Int64 = 0x616e_616c_7967_656e
    /// The advisory lock a rebuild holds for its whole run, so that two never run at once.
    static let rebuildLock: Int64 = 0x616e_616c_7972_6562

    /// The generations a live batch writes (current and building), with the shared lock for its transaction.
    static func live(on connection: PostgresConnection, logger: Logger) async throws -> [Int] {
        _ = try await connection.tracedQuery("SELECT pg_advisory_xact_lock_shared(\(switchLock))", logger: logger)
        let rows = try await connection.tracedQuery("SELECT id FROM generations WHERE state IN ('current', 'building') ORDER BY id", logger: logger)
        return try await rows.decode(Int.self).collectAll()
    }

    /// Whether `generation` is still being built, with the shared lock for the batch's transaction.
    static func isBuilding(_ generation: Int, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        _ = try await connection.tracedQuery("SELECT pg_advisory_xact_lock_shared(\(switchLock))", logger: logger)
        let rows = try await connection.tracedQuery("SELECT id FROM generations WHERE id = \(generation) AND state = 'building'", logger: logger)
        return try await !rows.decode(Int.self).collectAll().isEmpty
    }

    /// The generation queries read.
    static func current(on connection: PostgresConnection, logger: Logger) async throws -> Int {
        let rows = try await connection.tracedQuery("SELECT id FROM generations WHERE state = 'current'", logger: logger)
        guard let id = try await rows.decode(Int.self).collectAll().first else { throw MissingReturnedRow("SELECT the current generation") }
        return id
    }

    static func current(on client: PostgresClient, logger: Logger) async throws -> Int {
        try await client.withConnection { try await current(on: $0, logger: logger) }
    }

    /// Whether `generation`'s reads of the log were tallied from its first event (false: it counted events before
    /// migration 0005 began the tally).
    static func readsComplete(_ generation: Int, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.tracedQuery("SELECT reads_complete FROM generations WHERE id = \(generation)", logger: logger)
        return try await rows.decode(Bool.self).collectAll().first ?? false
    }

    /// A new building generation; one left by a rebuild that did not finish is retired (and its rows deleted).
    static func startBuilding(on client: PostgresClient, logger: Logger) async throws -> Int {
        let id = try await client.inTransaction(logger: logger) { connection in
            _ = try await connection.tracedQuery("SELECT pg_advisory_xact_lock(\(switchLock))", logger: logger)
            try await connection.tracedQuery("UPDATE generations SET state = 'retired' WHERE state = 'building'", logger: logger)
            let rows = try await connection.tracedQuery(
                "INSERT INTO generations (id, state) SELECT coalesce(max(id), 0) + 1, 'building' FROM generations RETURNING id",
                logger: logger)
            guard let id = try await rows.decode(Int.self).collectAll().first else { throw MissingReturnedRow("INSERT INTO generations") }
            return id
        }
        try await deleteRetired(on: client, logger: logger)
        return id
    }

    /// Makes `generation` current, then deletes the rows of the one it replaced.
    static func switchTo(_ generation: Int, on client: PostgresClient, logger: Logger) async throws {
        try await client.inTransaction(logger: logger) { connection in
            _ = try await connection.tracedQuery("SELECT pg_advisory_xact_lock(\(switchLock))", logger: logger)
            let switched = try await connection.tracedQuery(
                "SELECT id FROM generations WHERE id = \(generation) AND state = 'building'", logger: logger
            ).decode(Int.self).collectAll()
            guard !switched.isEmpty else { throw RebuildError("generation \(generation) is no longer being built") }
            try await connection.tracedQuery("UPDATE generations SET state = 'retired' WHERE state = 'current'", logger: logger)
            try await connection.tracedQuery(
                "UPDATE generations SET state = 'current', switched_at = now() WHERE id = \(generation)", logger: logger)
        }
        try await deleteRetired(on: client, logger: logger)
    }

    /// Gives up `generation` while it is still being built (a rebuild refused to switch): the live consumer stops
    /// writing it and its rows are deleted.
    static func abandon(_ generation: Int, on client: PostgresClient, logger: Logger) async throws {
        try await client.inTransaction(logger: logger) { connection in
            _ = try await connection.tracedQuery("SELECT pg_advisory_xact_lock(\(switchLock))", logger: logger)
            try await connection.tracedQuery(
                "UPDATE generations SET state = 'retired' WHERE id = \(generation) AND state = 'building'", logger: logger)
        }
        try await deleteRetired(on: client, logger: logger)
    }

    /// Deletes the rows of every retired generation, one statement per table (no batch waits on them: nothing
    /// reads or writes a retired generation).
    static func deleteRetired(on client: PostgresClient, logger: Logger) async throws {
        for table in tables {
            try await client.tracedQuery(
                PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE generation IN (SELECT id FROM generations WHERE state = 'retired')"),
                logger: logger)
        }
    }

    /// Runs `body` holding the rebuild lock on a connection of its own (a killed rebuild's lock goes with its
    /// connection); throws `RebuildLockHeld` at once when another rebuild holds it.
    static func withRebuildLock(on client: PostgresClient, logger: Logger, _ body: () async throws -> Void) async throws {
        try await client.withConnection { holder in
            let locked =
                try await holder.tracedQuery("SELECT pg_try_advisory_lock(\(rebuildLock))", logger: logger)
                .decode(Bool.self).collectAll().first ?? false
            guard locked else { throw RebuildLockHeld() }
            let unlock: PostgresQuery = "SELECT pg_advisory_unlock(\(rebuildLock))"
            do {
                try await body()
            } catch {
                _ = try? await holder.tracedQuery(unlock, logger: logger)
                throw error
            }
            _ = try await holder.tracedQuery(unlock, logger: logger)
        }
    }

    struct RebuildLockHeld: Error {}
}

struct RebuildError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
