import Logging
import PlatformCore
import PostgresNIO

/// The `erased_accounts` table every service schema has (`AccountErasureSchema`): the hashes of account ids that were
/// deleted or merged away, written in the same transaction that erased the account's data.
public enum ErasedAccountsStore {
    /// Records `userId` as erased (again: nothing changes) and tells this replica's `erased` at once.
    public static func record(
        _ userId: String, in erased: ErasedAccounts, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let hash = ErasedAccounts.hash(of: userId)
        try await connection.tracedQuery(
            "INSERT INTO erased_accounts (id_hash) VALUES (\(hash)) ON CONFLICT (id_hash) DO NOTHING", logger: logger)
        // Before the commit: a rollback is retried until the erasure applies, so refusing the tokens early is safe.
        erased.insert(hash: hash)
    }

    /// Whether `userId` was erased, from the table (for an event that would bring the account's data back).
    public static func isErased(_ userId: String, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let rows = try await connection.tracedQuery(
            "SELECT 1 FROM erased_accounts WHERE id_hash = \(ErasedAccounts.hash(of: userId))", logger: logger)
        return try await rows.collectAll().count == 1
    }

    /// Reads the rows `erased` has not seen yet into it. A row's `seq` is taken when it is inserted, not when it
    /// commits, so a lower number can become visible after a higher one was read: the last ten minutes' rows are
    /// read again every time (by `erased_at`, indexed), longer than a consumer's batch transaction runs.
    package static func refresh(_ erased: ErasedAccounts, client: PostgresClient, logger: Logger) async throws {
        let rows = try await client.tracedQuery(
            """
            SELECT id_hash, seq FROM erased_accounts WHERE seq > \(erased.lastSeq) OR erased_at > now() - interval '10 minutes'
            ORDER BY seq
            """, logger: logger)
        let read = try await rows.decode((String, Int64).self).collectAll().map { (hash: $0.0, seq: $0.1) }
        erased.add(read)
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
    ]
}
