import Foundation
import Logging
import PlatformCore
import PlatformPostgres
import PostgresNIO
import TestSupport
import Testing

/// `erased_accounts` in real Postgres: rows hold the keyed hash and stay, to refuse late and replayed
/// events; a replica's memory reads only the last token life's rows; rows from before the key (the id's plain
/// SHA-256) are honoured until they age out and are then deleted.
@Suite("Erased accounts against real Postgres")
struct ErasedAccountsStoreTests {
    let key = ErasedAccountKey(secret: "erased-accounts-store-test-key-0123456789")
    let ids = (1...4).map { "0000000\($0)-0d55-4a57-9f3e-1c1d7c3a9e01" }

    @Test("U9: the table keeps every erasure; a replica's memory reads only the last token life's; unkeyed rows go after their week")
    func keptRowsMemoryAndUnkeyedRows() async throws {
        try await withTestDatabase(schema: "svc") { db in
            let (writer, replica) = (ErasedAccounts(key: key), ErasedAccounts(key: key))
            // Rows from before the key, as the migration leaves them (`keyed` false): 8 days and 1 day old.
            _ = try await db.count(
                """
                INSERT INTO erased_accounts (id_hash, erased_at) VALUES
                    ('\(ErasedAccounts.unkeyedHash(of: ids[0]))', now() - interval '8 days'),
                    ('\(ErasedAccounts.unkeyedHash(of: ids[1]))', now() - interval '1 day') RETURNING 1
                """)
            _ = try await db.count(
                """
                INSERT INTO erased_accounts (id_hash, keyed, erased_at) VALUES ('\(key.hash(of: ids[2]))', true, now() - interval '2 hours')
                RETURNING 1
                """)
            try await db.client.withConnection { connection in
                try await ErasedAccountsStore.record(ids[3], in: writer, on: connection, logger: db.logger)
                try await ErasedAccountsStore.record(ids[3], in: writer, on: connection, logger: db.logger)
            }
            #expect(try await db.count("SELECT count(*)::int FROM erased_accounts WHERE keyed") == 2)
            #expect(try await db.count("SELECT count(*)::int FROM erased_accounts WHERE id_hash = '\(ErasedAccounts.unkeyedHash(of: ids[3]))'") == 0)

            try await ErasedAccountsStore.refresh(replica, client: db.client, logger: db.logger)
            #expect(replica.count == 1, "only the erasure a token issued before it can still be presented for")
            #expect(replica.contains(ids[3]) && !replica.contains(ids[2]) && !replica.contains(ids[1]))

            #expect(try await erased(ids, by: writer, in: db) == [true, true, true, true], "the table keeps every erasure")
            #expect(try await ErasedAccountsStore.forgetUnkeyed(client: db.client, logger: db.logger) == 1)
            #expect(try await erased(ids, by: writer, in: db) == [false, true, true, true], "the unkeyed row within its week stays")
        }
    }

    /// Whether the table holds each id as erased, looked up with `erased`'s key.
    func erased(_ ids: [String], by erased: ErasedAccounts, in db: TestDatabase) async throws -> [Bool] {
        try await db.client.withConnection { connection in
            var found: [Bool] = []
            for id in ids { found.append(try await ErasedAccountsStore.isErased(id, in: erased, on: connection, logger: db.logger)) }
            return found
        }
    }

    @Test("U9: another key finds none of the rows")
    func otherKeyFindsNothing() async throws {
        try await withTestDatabase(schema: "svc") { db in
            try await db.client.withConnection { connection in
                try await ErasedAccountsStore.record(ids[0], in: ErasedAccounts(key: key), on: connection, logger: db.logger)
            }
            #expect(try await erased([ids[0]], by: ErasedAccounts(key: key), in: db) == [true])
            #expect(try await erased([ids[0]], by: ErasedAccounts(key: .random()), in: db) == [false])
        }
    }
}
