import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// analytics-aggregator's part in an account's end. Deleted: its poll answers and survey account go (the
/// poll's and survey's results are counts and stay); its survey answers, its place among a feature's distinct users
/// and its coupon's mailbox record stay under one new key that names nobody. The mailbox record is auth's keyed hash
/// of the mailbox and the coupon's date only, kept so that the mailbox earns no second coupon by signing up again.
/// Merged: poll answers and feature users follow to the account the install merged into (its own answer to a
/// question both answered is kept). An install account never takes the hotel survey, so there are no survey answers
/// to move.
struct AnalyticsAccountsOwner: AccountDataOwner {
    func erase(user: String, on connection: PostgresConnection, logger: Logger) async throws {
        let anonymous = "erased:\(UUID().uuidString.lowercased())"
        for table in ["poll_answers", "survey_accounts"] {
            try await connection.tracedQuery("DELETE FROM \(unescaped: table) WHERE user_id = \(user)", logger: logger)
        }
        for table in ["survey_services", "survey_overall", "survey_coupon_mailboxes"] {
            try await connection.tracedQuery("UPDATE \(unescaped: table) SET user_id = \(anonymous) WHERE user_id = \(user)", logger: logger)
        }
        try await connection.tracedQuery(
            "UPDATE feature_users SET user_key = \(anonymous) WHERE user_key = \("u:" + user)", logger: logger)
    }

    func merge(from: String, into: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery(
            """
            INSERT INTO poll_answers (user_id, question, answer, answered_at)
            SELECT \(into), question, answer, answered_at FROM poll_answers WHERE user_id = \(from) ON CONFLICT DO NOTHING
            """, logger: logger)
        try await connection.tracedQuery("DELETE FROM poll_answers WHERE user_id = \(from)", logger: logger)
        // The merged account is one user: where both used a feature, the count drops by one.
        try await connection.tracedQuery(
            """
            WITH gone AS (
                DELETE FROM feature_users f WHERE f.user_key = \("u:" + from) AND EXISTS (
                    SELECT 1 FROM feature_users i
                    WHERE i.generation = f.generation AND i.app = f.app AND i.feature = f.feature AND i.user_key = \("u:" + into))
                RETURNING generation, app, feature
            )
            UPDATE features SET users = features.users - 1 FROM gone
            WHERE features.generation = gone.generation AND features.app = gone.app AND features.feature = gone.feature
                AND features.sketch IS NULL
            """, logger: logger)
        try await connection.tracedQuery(
            "UPDATE feature_users SET user_key = \("u:" + into) WHERE user_key = \("u:" + from)", logger: logger)
    }
}
