import Foundation
import Logging
import PlatformCore
import PostgresNIO
import ServiceLifecycle

/// How long analytics keeps what identifies events and users (U11). The dashboard's numbers themselves are
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
        let stale = try await FeatureMemberRetention.staleFeatures(olderThanDays: userKeysDays, on: client, logger: logger)
        for (generation, key) in stale {
            try await FeatureMemberRetention.retire(key, generation: generation, writer: writer, on: client, logger: logger)
        }
        let dropped = try await AppliedEvents.dropOlderThan(days: appliedIdsDays, batch: batch, on: client, logger: logger)
        return (stale.count, dropped)
    }
}
