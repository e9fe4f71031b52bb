import Foundation
import Logging
import PlatformCore
import PostgresNIO

/// How `analytics.telemetry` names an account (U9): `p:` and a random pseudonym of the account's own, kept here
/// beside the account id and deleted with the account. The topic is kept for good for rebuilds; what it holds of an
/// account is that pseudonym, so once the row is gone nobody can tell whose the events were, while a rebuild still
/// counts them (without a user, as the live aggregates count an erased account). The topic's only reader needs
/// nothing but distinct users, so a random name whose mapping is destroyed does what a per-account key would
/// (docs/decisions/0011-erasing-kept-topics.md).
enum AccountPseudonyms {
    /// Each account's pseudonym, made on first use. An account erased here gets none (it is left out of the answer):
    /// a late event must not bring its id back into this table. Runs inside the caller's transaction: it waits for a
    /// deletion or merge of the accounts being applied (which holds the account's lock, `AccountLifecycleEvents`) and
    /// then reads `erased_accounts` with what that committed.
    static func resolve(
        _ accounts: Set<String>, erased: ErasedAccounts, on connection: PostgresConnection, logger: Logger
    ) async throws -> [String: String] {
        guard !accounts.isEmpty else { return [:] }
        let ids = accounts.sorted()
        try await connection.tracedQuery(
            "SELECT pg_advisory_xact_lock_shared(hashtextextended('account:' || k, 0)) FROM unnest(\(ids)::text[]) AS k ORDER BY k",
            logger: logger)
        let keyed = ids.map(erased.storedValue(of:)), unkeyed = ids.map(ErasedAccounts.unkeyedHash(of:))
        var found: [String: String] = [:]
        // A row another transaction inserts at the same moment is neither inserted here nor visible to this
        // statement's snapshot: the next round reads it.
        for _ in 0..<3 where found.count < accounts.count {
            let rows = try await connection.tracedQuery(
                """
                WITH wanted AS (
                    SELECT a FROM unnest(\(ids)::text[], \(keyed)::text[], \(unkeyed)::text[]) AS t(a, k, u)
                    WHERE NOT EXISTS (SELECT 1 FROM erased_accounts WHERE id_hash IN (k, u))
                ), made AS (
                    INSERT INTO account_pseudonyms (account, pseudonym)
                    SELECT a, replace(gen_random_uuid()::text, '-', '') FROM wanted
                    ON CONFLICT (account) DO NOTHING RETURNING account, pseudonym
                )
                SELECT account, pseudonym FROM made
                UNION ALL
                SELECT p.account, p.pseudonym FROM account_pseudonyms p JOIN wanted w ON w.a = p.account
                """, logger: logger)
            for try await (account, pseudonym) in rows.decode((String, String).self) { found[account] = pseudonym }
            if found.count == accounts.count { break }
            let erasedCount = try await erasedAmong(ids, keyed: keyed, unkeyed: unkeyed, on: connection, logger: logger)
            if found.count + erasedCount >= accounts.count { break }
        }
        return found
    }

    /// How an event names `account`: `p:` and its pseudonym, or a name no row holds when it is erased.
    static func named(_ account: String, erased: ErasedAccounts, on connection: PostgresConnection, logger: Logger) async throws -> String {
        try await ofLive(account, erased: erased, on: connection, logger: logger).map { AccountPseudonym.prefix + $0 } ?? AccountPseudonym.nobody()
    }

    /// As `named`, for a write of the account's own: nil when it is erased, so the caller writes nothing. First in the
    /// caller's transaction, so a deletion applied meanwhile either comes after it (and erases what it writes) or
    /// before (and this says so).
    static func ofLive(_ account: String, erased: ErasedAccounts, on connection: PostgresConnection, logger: Logger) async throws -> String? {
        try await resolve([account], erased: erased, on: connection, logger: logger)[account]
    }

    /// The pseudonyms of `names` (without the prefix) whose account still exists, locked until the caller's
    /// transaction ends: an erasure deletes the row first (`forget`), so it waits for a batch counting under the
    /// pseudonym and then re-keys what that batch wrote.
    static func live(_ names: Set<String>, on connection: PostgresConnection, logger: Logger) async throws -> Set<String> {
        guard !names.isEmpty else { return [] }
        let rows = try await connection.tracedQuery(
            """
            SELECT pseudonym FROM account_pseudonyms WHERE pseudonym = ANY(\(names.sorted())::text[])
            ORDER BY pseudonym FOR KEY SHARE
            """, logger: logger)
        return Set(try await rows.decode(String.self).collectAll())
    }

    /// Deletes the account's pseudonym, returning it: its events on the topic name nobody from now on. Waits for a
    /// batch counting under it (`live`), so what the caller re-keys afterwards includes that batch's rows.
    static func forget(_ account: String, on connection: PostgresConnection, logger: Logger) async throws -> String? {
        let rows = try await connection.tracedQuery(
            "DELETE FROM account_pseudonyms WHERE account = \(account) RETURNING pseudonym", logger: logger)
        return try await rows.decode(String.self).collectAll().first
    }

    private static func erasedAmong(
        _ ids: [String], keyed: [String], unkeyed: [String], on connection: PostgresConnection, logger: Logger
    ) async throws -> Int {
        let rows = try await connection.tracedQuery(
            """
            SELECT count(*)::int FROM unnest(\(ids)::text[], \(keyed)::text[], \(unkeyed)::text[]) AS t(a, k, u)
            WHERE EXISTS (SELECT 1 FROM erased_accounts WHERE id_hash IN (k, u))
            """, logger: logger)
        return try await rows.decode(Int.self).collectAll().first ?? 0
    }
}
