import Foundation
import PlatformPostgres
import PostgresNIO

extension ImportAreaStore {

    /// Queues the tile as an on-demand import area, at most `perHour` new tiles an hour for everyone and
    /// `perUserPerHour` for one user. The tile's name deduplicates requests across instances; a transaction
    /// lock makes the counts exact when instances ask together.
    func requestOnDemand(_ tile: OnDemandTile, user: String, perHour: Int, perUserPerHour: Int) async throws -> OnDemandRequest {
        let box = tile.box
        return try await client.inTransaction(logger: logger) { connection in
            try await connection.tracedQuery("SELECT pg_advisory_xact_lock(hashtext('places-importer on-demand tiles'))", logger: logger)
            let existing =
                try await connection.tracedQuery("SELECT count(*) FROM import_areas WHERE name = \(tile.areaName)", logger: logger)
                .decode(Int.self).collectAll().first ?? 0
            if existing > 0 { return .alreadyQueued }
            let (everyone, mine) =
                try await connection.tracedQuery(
                    """
                    SELECT count(*), count(*) FILTER (WHERE requested_by = \(user))
                    FROM import_areas WHERE on_demand AND created_at > now() - interval '1 hour'
                    """,
                    logger: logger
                ).decode((Int, Int).self).collectAll().first ?? (0, 0)
            if everyone >= perHour { return .refusedForEveryone }
            if mine >= perUserPerHour { return .refusedForUser }
            try await connection.tracedQuery(
                """
                INSERT INTO import_areas (id, name, south, west, north, east, on_demand, requested_by, next_run_at)
                VALUES (\(UUID()), \(tile.areaName), \(box.south), \(box.west), \(box.north), \(box.east), true, \(user), now())
                """,
                logger: logger)
            return .queued
        }
    }

    /// A user asked for places in the on-demand tile again: it is kept (see `expireOnDemand`).
    func touchOnDemand(_ tile: OnDemandTile) async throws {
        try await client.tracedQuery(
            "UPDATE import_areas SET last_requested_at = now() WHERE name = \(tile.areaName) AND on_demand", logger: logger)
    }

    /// Drops the on-demand areas nobody asked about for `unrequestedFor` (not one being imported right now): they
    /// are no longer imported again and again. Their places stay. Returns the areas' names.
    func expireOnDemand(unrequestedFor: Duration) async throws -> [String] {
        try await client.tracedQuery(
            """
            DELETE FROM import_areas
            WHERE on_demand AND last_requested_at < now() - make_interval(secs => \(Double(unrequestedFor.components.seconds)))
              AND claimed_until < now()
            RETURNING name
            """, logger: logger
        ).decode(String.self).collectAll()
    }

    /// Every area's box, whether it was asked for on demand, and whether a run of it has finished.
    func coverage() async throws -> [ImportCoverage.Area] {
        try await client.tracedQuery(
            "SELECT south, west, north, east, on_demand, last_finished_at IS NOT NULL FROM import_areas", logger: logger
        ).decode((Double, Double, Double, Double, Bool, Bool).self).collectAll().map {
            ImportCoverage.Area(box: GeoBox(south: $0.0, west: $0.1, north: $0.2, east: $0.3), onDemand: $0.4, imported: $0.5)
        }
    }
}
