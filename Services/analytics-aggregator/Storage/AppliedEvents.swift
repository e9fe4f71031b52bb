import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// Which events each generation has applied (`applied_events`, N2, N6): the aggregate handler's own marks, so
/// that an event redelivered, or seen by both the live consumer and a rebuild, counts once per generation.
enum AppliedEvents {
    /// Marks `ids` applied to `generation`; returns those that were not marked before.
    static func markNew(_ ids: [UUID], generation: Int, on connection: PostgresConnection, logger: Logger) async throws -> Set<UUID> {
        let rows = try await connection.tracedQuery(
            """
            INSERT INTO applied_events (generation, event_id) SELECT \(generation), id FROM unnest(\(ids)::uuid[]) AS t(id)
            ON CONFLICT DO NOTHING RETURNING event_id
            """, logger: logger)
        return Set(try await rows.decode(UUID.self).collectAll())
    }

    /// Deletes marks older than `days`, `batch` rows per statement so no statement holds many locks for long;
    /// how many went.
    static func dropOlderThan(days: Int, batch: Int, on client: PostgresClient, logger: Logger) async throws -> Int {
        var dropped = 0
        while true {
            let rows = try await client.tracedQuery(
                """
                WITH old AS (
                    SELECT generation, event_id FROM applied_events
                    WHERE applied_at < now() - make_interval(days => \(days)::int) LIMIT \(batch)
                )
                DELETE FROM applied_events a USING old WHERE a.generation = old.generation AND a.event_id = old.event_id
                RETURNING 1
                """, logger: logger
            ).decode(Int.self).collectAll()
            dropped += rows.count
            if rows.count < batch { return dropped }
        }
    }
}
