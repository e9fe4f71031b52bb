import Foundation
import Logging
import PlatformCore
import PlatformPostgres
import PostgresNIO

/// analytics-aggregator's part in an account's end. Deleted: its poll answers and survey account go (the
/// poll's and survey's results are counts and stay); its survey answers, its place among a feature's distinct users
/// and its coupon's mailbox record stay under one new key that names nobody. The mailbox record is auth's keyed hash
/// of the mailbox and the coupon's date only, kept so that the mailbox earns no second coupon by signing up again.
/// Merged: poll answers and feature users follow to the account the install merged into (its own answer to a
/// question both answered is kept). Both: the ended account's pseudonym goes, so that its events on the kept
/// telemetry topic name nobody (U9). An install account never takes the hotel survey, so there are no survey answers
/// to move.
struct AnalyticsAccountsOwner: AccountDataOwner {
    /// Whose pseudonym must not be made again (`AccountPseudonyms`).
    let erased: ErasedAccounts

    func erase(user: String, on connection: PostgresConnection, logger: Logger) async throws {
        let anonymous = "erased:\(UUID().uuidString.lowercased())"
        for table in ["poll_answers", "survey_accounts"] {
            try await connection.tracedQuery("DELETE FROM \(unescaped: table) WHERE user_id = \(user)", logger: logger)
        }
        for table in ["survey_services", "survey_overall", "survey_coupon_mailboxes"] {
            try await connection.tracedQuery("UPDATE \(unescaped: table) SET user_id = \(anonymous) WHERE user_id = \(user)", logger: logger)
        }
        // Its events on the kept telemetry topic name nobody from now on (U9).
        let keys = try await forgetMemberKeys(of: user, on: connection, logger: logger)
        try await connection.tracedQuery(
            "UPDATE feature_users SET user_key = \(anonymous) WHERE user_key = ANY(\(keys)::text[])", logger: logger)
    }

    /// Deletes the account's pseudonym and returns the names it may have among a feature's users: the pseudonym's,
    /// and its id's from before pseudonyms. Deleting first waits for a batch counting under the pseudonym, so the
    /// caller's re-keying sees that batch's rows.
    private func forgetMemberKeys(of account: String, on connection: PostgresConnection, logger: Logger) async throws -> [String] {
        let pseudonym = try await AccountPseudonyms.forget(account, on: connection, logger: logger)
        return ["u:" + account] + (pseudonym.map { [AccountPseudonym.prefix + $0] } ?? [])
    }

    func merge(from: String, into: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery(
            """
            INSERT INTO poll_answers (user_id, question, answer, answered_at)
            SELECT \(into), question, answer, answered_at FROM poll_answers WHERE user_id = \(from) ON CONFLICT DO NOTHING
            """, logger: logger)
        try await connection.tracedQuery("DELETE FROM poll_answers WHERE user_id = \(from)", logger: logger)
        let fromKeys = try await forgetMemberKeys(of: from, on: connection, logger: logger)
        // The lasting account is not erased (the caller looked), so it has a pseudonym from now on.
        let intoKey = try await AccountPseudonyms.named(into, erased: erased, on: connection, logger: logger)
        let intoKeys = ["u:" + into, intoKey]
        // The merged account is one user: where both used a feature, the count drops by one.
        try await connection.tracedQuery(
            """
            WITH gone AS (
                DELETE FROM feature_users f WHERE f.user_key = ANY(\(fromKeys)::text[]) AND EXISTS (
                    SELECT 1 FROM feature_users i
                    WHERE i.generation = f.generation AND i.app = f.app AND i.feature = f.feature AND i.user_key = ANY(\(intoKeys)::text[]))
                RETURNING generation, app, feature
            )
            UPDATE features SET users = features.users - 1 FROM gone
            WHERE features.generation = gone.generation AND features.app = gone.app AND features.feature = gone.feature
                AND features.sketch IS NULL
            """, logger: logger)
        try await connection.tracedQuery(
            "UPDATE feature_users SET user_key = \(intoKey) WHERE user_key = ANY(\(fromKeys)::text[])", logger: logger)
    }
}
