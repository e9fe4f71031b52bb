import Logging
import PlatformPostgres
import PostgresNIO

/// The user keys behind exact distinct-user counts (`feature_users`) past their retention (U11).
enum FeatureMemberRetention {
    /// Each generation's features with a member added more than `days` ago.
    static func staleFeatures(
        olderThanDays days: Int, on client: PostgresClient, logger: Logger
    ) async throws
        -> [(generation: Int, key: AggregateDelta.FeatureKey)]
    {
        try await client.tracedQuery(
            """
            SELECT DISTINCT generation, app, feature FROM feature_users
            WHERE added_at < now() - make_interval(days => \(days)::int) ORDER BY 1, 2, 3
            """, logger: logger
        ).decode((Int, String, String).self).collectAll().map { ($0.0, AggregateDelta.FeatureKey(app: $0.1, feature: $0.2)) }
    }

    /// The feature's members become its HyperLogLog sketch in one transaction; its count says `approximate` from then on.
    static func retire(
        _ key: AggregateDelta.FeatureKey, generation: Int, writer: AggregateWriter, on client: PostgresClient, logger: Logger
    )
        async throws
    {
        try await client.inTransaction(logger: logger) { connection in
            try await writer.retireMembers(key, generation: generation, on: connection, logger: logger)
        }
    }
}
