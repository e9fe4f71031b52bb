import Foundation
import Logging
import PlatformCore
import PostgresNIO

/// The `erased_accounts` table every service schema has (`AccountErasureSchema`): the keyed hashes of account ids
/// that were deleted or merged away, written in the same transaction that erased the account's data. Rows stay:
/// an event that names the account can come late (another topic, another partition) or again (a replay, a rebuild
/// from topics kept for good), and must not bring its data back. Memory keeps only the last hour's (`ErasedAccounts`).
public enum ErasedAccountsStore {
    /// How long a row from before the key (an unkeyed hash, which anyone holding the id can match) is still honoured:
    /// longer than an event in flight at the upgrade takes to arrive. Then `forgetUnkeyed` deletes it.
    public static let unkeyedRetention: TimeInterval = 7 * 86_400

    /// Records `userId` as erased (again: nothing changes) and tells this replica's `erased` at once.
    public static func record(
        _ userId: String, in erased: ErasedAccounts, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let value = erased.storedValue(of: userId)
        try await connection.tracedQuery(
            "INSERT INTO erased_accounts (id_hash, keyed) VALUES (\(value), true) ON CONFLICT (id_hash) DO NOTHING", logger: logger)
        // Before the commit: a rollback is retried until the erasure applies, so refusing the tokens early is safe.
        erased.insert(value)
    }

    /// Whether `userId` was erased, from the table (for an event that would bring the account's data back).
    public static func isErased(
        _ userId: String, in erased: ErasedAccounts, on connection: PostgresConnection, logger: Logger
    ) async throws -> Bool {
        let rows = try await connection.tracedQuery(
            "SELECT 1 FROM erased_accounts WHERE id_hash = ANY(\(erased.storedForms(of: userId))::text[])", logger: logger)
        return try await rows.collectAll().count == 1
    }

    /// Reads the rows `erased` has not seen yet into it, only those of the last `erased.retention` (indexed by
    /// `erased_at`): what a token can still be presented for. A row's `seq` is taken when it is inserted, not when it
    /// commits, so a lower number can become visible after a higher one was read: the last ten minutes' rows are
    /// read again every time, longer than a consumer's batch transaction runs.
    package static func refresh(_ erased: ErasedAccounts, client: PostgresClient, logger: Logger) async throws {
        let rows = try await client.tracedQuery(
            """
            SELECT id_hash, seq, erased_at, keyed FROM erased_accounts
            WHERE (seq > \(erased.lastSeq) OR erased_at > now() - interval '10 minutes')
              AND erased_at > now() - make_interval(secs => \(erased.retention))
            ORDER BY seq
            """, logger: logger)
        let read = try await rows.decode((String, Int64, Date, Bool).self).collectAll()
        erased.add(read.map { ErasedAccounts.Row(value: $0.0, seq: $0.1, erasedAt: $0.2, keyed: $0.3) })
    }

    /// Deletes the rows from before the key once `unkeyedRetention` has passed; returns how many went.
    @discardableResult
    package static func forgetUnkeyed(client: PostgresClient, logger: Logger) async throws -> Int {
        let rows = try await client.tracedQuery(
            """
            DELETE FROM erased_accounts WHERE NOT keyed AND erased_at < now() - make_interval(secs => \(unkeyedRetention))
            RETURNING 1
            """, logger: logger)
        return try await rows.collectAll().count
    }
}

/// The table of `ErasedAccountsStore`, among the platform tables every service has.
public enum AccountErasureSchema {
    public static let migrations: [Migration] = [
        Migration(
            "0000_platform_erased_accounts",
            [
                """
                CREATE TABLE erased_accounts (
                    id_hash text PRIMARY KEY,
                    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
                    erased_at timestamptz NOT NULL DEFAULT now()
                )
                """
            ]),
        Migration("0000_platform_erased_accounts_by_time", ["CREATE INDEX erased_accounts_by_time ON erased_accounts (erased_at)"]),
        // `id_hash` becomes a keyed hash. The rows before hold an id's plain SHA-256, which cannot be turned into the
        // keyed one: they stay, marked unkeyed, are still matched, and are deleted after `unkeyedRetention`. The
        // default is false so that a replica of the old code, writing plain hashes during the rollout, marks its own.
        Migration(
            "0000_platform_erased_accounts_keyed",
            [
                "ALTER TABLE erased_accounts ADD COLUMN keyed boolean NOT NULL DEFAULT false",
                "CREATE INDEX erased_accounts_unkeyed ON erased_accounts (erased_at) WHERE NOT keyed",
            ]),
    ]
}
