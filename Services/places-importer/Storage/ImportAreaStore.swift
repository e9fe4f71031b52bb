import Foundation
import Logging
import PlatformCore
import PlatformPostgres
import PostgresNIO

/// The areas imported on a schedule, with each one's last run and progress (P1).
struct ImportAreaStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    /// Adds an area or moves an existing one of that name; `runNow` makes it due at once.
    @discardableResult
    func upsert(name: String, box: GeoBox, placesOfWorship: Bool = false, runNow: Bool) async throws -> UUID {
        let rows = try await client.tracedQuery(
            """
            INSERT INTO import_areas (id, name, south, west, north, east, places_of_worship)
            VALUES (\(UUID()), \(name), \(box.south), \(box.west), \(box.north), \(box.east), \(placesOfWorship))
            ON CONFLICT (name) DO UPDATE SET south = EXCLUDED.south, west = EXCLUDED.west, north = EXCLUDED.north,
                east = EXCLUDED.east, places_of_worship = EXCLUDED.places_of_worship, next_run_at = CASE WHEN \(runNow) THEN now() ELSE import_areas.next_run_at END
            RETURNING id
            """,
            logger: logger)
        guard let id = try await rows.decode(UUID.self).collectAll().first else { throw MissingReturnedRow("import area upsert") }
        return id
    }

    /// Makes an area due now; false when there is no such area.
    func runNow(_ id: UUID) async throws -> Bool {
        let rows = try await client.tracedQuery(
            "UPDATE import_areas SET next_run_at = now() WHERE id = \(id) RETURNING id", logger: logger)
        return try await rows.collectAll().count == 1
    }

    /// Claims the most overdue area for `claimFor`, so no other instance imports it meanwhile.
    func claimDue(claimFor: Duration) async throws -> ImportArea? {
        let rows = try await client.tracedQuery(
            """
            UPDATE import_areas SET claimed_until = now() + make_interval(secs => \(claimFor.seconds)), last_started_at = now(),
                last_status = 'running', last_error = NULL, places_created = 0, places_changed = 0, places_unchanged = 0,
                tiles_done = 0, tiles_total = 0
            WHERE id = (
                SELECT id FROM import_areas WHERE next_run_at <= now() AND claimed_until < now()
                ORDER BY next_run_at LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING id, name, south, west, north, east, places_of_worship
            """,
            logger: logger)
        return try await rows.decode((UUID, String, Double, Double, Double, Double, Bool).self).collectAll().first.map {
            ImportArea(id: $0.0, name: $0.1, box: GeoBox(south: $0.2, west: $0.3, north: $0.4, east: $0.5), placesOfWorship: $0.6)
        }
    }

    func progress(_ id: UUID, outcome: UpsertOutcome, tilesDone: Int, tilesTotal: Int) async throws {
        try await client.tracedQuery(
            """
            UPDATE import_areas SET places_created = \(outcome.created), places_changed = \(outcome.changed),
                places_unchanged = \(outcome.unchanged), tiles_done = \(tilesDone), tiles_total = \(tilesTotal)
            WHERE id = \(id)
            """,
            logger: logger)
    }

    func finish(_ id: UUID, error: String?, nextRunIn interval: Duration) async throws {
        try await client.tracedQuery(
            """
            UPDATE import_areas SET last_finished_at = now(), last_status = \(error == nil ? "succeeded" : "failed"),
                last_error = \(error?.storableText()), claimed_until = '-infinity', runs = runs + 1, next_run_at = now() + make_interval(secs => \(interval.seconds))
            WHERE id = \(id)
            """,
            logger: logger)
    }

    /// Gives back the claim of an import stopped before it finished (the instance shutting down): the area stays due,
    /// so the next instance imports it now instead of when the claim runs out, an hour on.
    func release(_ id: UUID) async throws {
        try await client.tracedQuery(
            """
            UPDATE import_areas SET claimed_until = '-infinity', last_finished_at = now(), last_status = 'failed',
                last_error = 'interrupted: the instance stopped during the import; due again'
            WHERE id = \(id)
            """,
            logger: logger)
    }

    func list() async throws -> [ImportAreaStatus] {
        let rows = try await client.tracedQuery(
            """
            SELECT id, name, south, west, north, east, next_run_at, last_started_at, last_finished_at, last_status, last_error,
                places_created, places_changed, places_unchanged, tiles_done, tiles_total, places_of_worship
            FROM import_areas ORDER BY name
            """,
            logger: logger)
        var result: [ImportAreaStatus] = []
        for try await row in rows.decode(
            (UUID, String, Double, Double, Double, Double, Date, Date?, Date?, String?, String?, Int, Int, Int, Int, Int, Bool).self)
        {
            result.append(
                ImportAreaStatus(
                    area: ImportArea(
                        id: row.0, name: row.1, box: GeoBox(south: row.2, west: row.3, north: row.4, east: row.5), placesOfWorship: row.16),
                    nextRunAt: row.6, lastStartedAt: row.7, lastFinishedAt: row.8, lastStatus: row.9, lastError: row.10,
                    created: row.11, changed: row.12, unchanged: row.13, tilesDone: row.14, tilesTotal: row.15))
        }
        return result
    }
}
