import Foundation
import Logging
import PostgresNIO
import Shared

/// How an account ends (issue 29): deleted by its owner or an admin, or merged into the lasting account an
/// install signed in to. Either way the account's row goes (its sessions, resets, codes and payments with it),
/// one event tells the other services, and its id joins the erased ones, so its access tokens are refused here
/// at once and by every other service once it has applied the event.
struct AccountEndStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    let usersTopic: String
    let admin: AdminStore
    let erased: ErasedAccounts

    /// Deletes the account and publishes `user.deleted`; false when there is no such account.
    func delete(_ id: UUID, by: String) async throws -> Bool {
        try await client.inTransaction(logger: logger) { connection -> Bool in
            let rows = try await connection.tracedQuery("DELETE FROM accounts WHERE id = \(id) RETURNING id", logger: logger)
            guard try await rows.collectAll().count == 1 else { return false }
            try await Outbox.enqueue(
                EventEnvelope(type: EventTypes.userDeleted, producer: "auth", key: id.uuidString, payload: UserDeleted(userId: id, by: by)),
                toTopicNamed: usersTopic, on: connection, logger: logger)
            try await ErasedAccountsStore.record(AccountKey.of(id), in: erased, on: connection, logger: logger)
            return true
        }
    }

    enum MergeOutcome: Equatable {
        case merged(from: UUID)
        /// The refresh token is unknown, ended or expired.
        case invalidToken
        /// The token is another kind of account's, or the caller's own.
        case notAnInstall
        case noAccount
    }

    /// Merges the install account whose live refresh token is `installRefreshToken` into `into`: its payments and
    /// paid features move (each new one published as `entitlement.granted`), profile fields `into` has not set are
    /// taken from it, then it is deleted and `user.merged` published.
    func mergeInstall(refreshToken: String, into: UUID) async throws -> MergeOutcome {
        try await client.inTransaction(logger: logger) { connection -> MergeOutcome in
            let owner = try await connection.tracedQuery(
                """
                SELECT a.id, a.kind FROM refresh_tokens t JOIN accounts a ON a.id = t.account_id
                WHERE t.token_hash = \(TokenIssuer.hash(refreshToken)) AND t.revoked_at IS NULL AND t.expires_at > now()
                FOR UPDATE OF a
                """, logger: logger
            ).decode((UUID, String).self).collectAll().first
            guard let (from, kind) = owner else { return .invalidToken }
            guard kind == AccountKind.install.rawValue, from != into else { return .notAnInstall }
            let target = try await connection.tracedQuery(
                "SELECT entitlements FROM accounts WHERE id = \(into) FOR UPDATE", logger: logger
            ).decode([String].self).collectAll().first
            guard let held = target else { return .noAccount }
            let carried = try await connection.tracedQuery(
                """
                UPDATE accounts AS i SET display_name = coalesce(i.display_name, f.display_name), language = coalesce(i.language, f.language),
                    time_zone = coalesce(i.time_zone, f.time_zone), zodiac_sign = coalesce(i.zodiac_sign, f.zodiac_sign)
                FROM accounts AS f WHERE i.id = \(into) AND f.id = \(from) RETURNING f.entitlements
                """, logger: logger
            ).decode([String].self).collectAll().first ?? []
            try await connection.tracedQuery("UPDATE payments SET account_id = \(into) WHERE account_id = \(from)", logger: logger)
            for entitlement in carried.compactMap(Entitlement.init(rawValue:)) where !held.contains(entitlement.rawValue) {
                _ = try await admin.grant(entitlement, to: into, source: "merge", on: connection)
            }
            try await connection.tracedQuery("DELETE FROM accounts WHERE id = \(from)", logger: logger)
            try await Outbox.enqueue(
                EventEnvelope(
                    type: EventTypes.userMerged, producer: "auth", key: from.uuidString, payload: UserMerged(fromUserId: from, intoUserId: into)),
                toTopicNamed: usersTopic, on: connection, logger: logger)
            try await ErasedAccountsStore.record(AccountKey.of(from), in: erased, on: connection, logger: logger)
            return .merged(from: from)
        }
    }
}
