import Foundation
import Logging
import PlatformCore
import PlatformPostgres
import PostgresNIO
import ServiceLifecycle

/// How long analytics keeps what identifies events and users (issue 27). The dashboard's numbers themselves are
/// kept (daily downloads by app and platform, totals per feature, city and poll question: counts, no one in
/// them). What goes:
/// - user keys behind an exact distinct-user count (`feature_users`), once any of a feature's members is older
///   than `ANALYTICS_USER_KEYS_RETENTION_DAYS`: the feature's members become its HyperLogLog sketch, as they do
///   past the exact limit, and its answer says `approximate` from then on;
/// - the ids that de-duplicate events (`applied_events`) older than `ANALYTICS_APPLIED_IDS_RETENTION_DAYS`. Keep
///   them at least as long as the telemetry topic keeps events (`platformctl create-topics
///   --telemetry-retention-days`): rewinding the live consumer past them would count events again.
struct AggregateRetention: Service {
    let client: PostgresClient
    let writer: AggregateWriter
    let userKeysDays: Int
    let appliedIdsDays: Int
    let interval: Duration
    let startGate: StartGate
    let logger: Logger
    /// Rows deleted per statement, so no single statement holds many locks for long.
    var batch = 10_000

    func run() async throws {
        await runPeriodically(startGate: startGate, interval: interval, logger: logger, failure: "analytics retention failed") {
            let (features, ids) = try await sweep()
            if features > 0 || ids > 0 {
                logger.info("analytics retention", metadata: ["featuresMadeApproximate": "\(features)", "eventIdsDropped": "\(ids)"])
            }
        }
    }

    /// One pass: features whose oldest member passed the retention become sketches; old event ids go.
    func sweep() async throws -> (features: Int, eventIds: Int) {
        let stale = try await client.tracedQuery(
            """
            SELECT DISTINCT generation, app, feature FROM feature_users
            WHERE added_at < now() - make_interval(days => \(userKeysDays)::int) ORDER BY 1, 2, 3
            """, logger: logger
        ).decode((Int, String, String).self).collectAll()
        for (generation, app, feature) in stale {
            try await client.inTransaction(logger: logger) { connection in
                try await writer.retireMembers(.init(app: app, feature: feature), generation: generation, on: connection, logger: logger)
            }
        }
        var dropped = 0
        while true {
            let rows = try await client.tracedQuery(
                """
                WITH old AS (
                    SELECT generation, event_id FROM applied_events
                    WHERE applied_at < now() - make_interval(days => \(appliedIdsDays)::int) LIMIT \(batch)
                )
                DELETE FROM applied_events a USING old WHERE a.generation = old.generation AND a.event_id = old.event_id
                RETURNING 1
                """, logger: logger
            ).decode(Int.self).collectAll()
            dropped += rows.count
            if rows.count < batch { break }
        }
        return (stale.count, dropped)
    }
}
