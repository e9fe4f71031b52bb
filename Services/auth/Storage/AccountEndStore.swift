import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformPostgres
import PostgresNIO

/// How an account ends (U9): deleted by its owner or an admin, or merged into the lasting account an
/// install signed in to. Either way the account's row goes (its sessions, resets, codes and payments with it, and
/// the mail to its address, queued or sent), one event tells the other services, and its id joins the erased ones,
/// so its access tokens are refused here at once and by every other service once it has applied the event.
struct AccountEndStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    let usersTopic: String
    let admin: AdminStore
    let erased: ErasedAccounts

    /// Deletes the account and publishes `user.deleted`; false when there is no such account.
    func delete(_ id: UUID, by: DeletionCause) async throws -> Bool {
        try await client.inTransaction(logger: logger) { connection -> Bool in
            // An admin deletes users and partners only: checked in the statement, so a promotion meanwhile is seen.
            let rows = try await connection.tracedQuery(
                "DELETE FROM accounts WHERE id = \(id) AND (\(by.rawValue) <> 'admin' OR role <> 'admin') RETURNING email", logger: logger)
            guard let deleted = try await rows.decode(String?.self).collectAll().first else { return false }
            if let email = deleted {
                try await connection.tracedQuery("DELETE FROM outgoing_mail WHERE lower(recipient) = \(email)", logger: logger)
            }
            try await Self.forgetTries(of: id, on: connection, logger: logger)
            try await Outbox.enqueue(
                EventEnvelope(type: EventTypes.userDeleted, producer: "auth", key: AccountKey.of(id), payload: UserDeleted(userId: id, by: by)),
                toTopicNamed: usersTopic, on: connection, logger: logger)
            try await ErasedAccountsStore.record(AccountKey.of(id), in: erased, on: connection, logger: logger)
            return true
        }
    }

    /// The tries counted against the account (wrong passwords and PINs): their subjects name its id.
    private static func forgetTries(of id: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        let key = AccountKey.of(id)
        try await connection.tracedQuery(
            "DELETE FROM failed_attempts WHERE lower(subject) = \(key) OR lower(subject) LIKE \(key + "|%")", logger: logger)
    }

    /// Merges the install account whose live refresh token is `installRefreshToken` into `into`: its payments and
    /// paid features move (each new one published as `entitlement.granted`), profile fields `into` has not set are
    /// taken from it, then it is deleted and `user.merged` published. Its id is kept beside `into`'s while `into`
    /// lasts, so a payment notification that names the install still reaches the account (`PaymentOwner`).
    func mergeInstall(refreshToken: String, into: UUID) async throws -> InstallMergeOutcome {
        try await client.inTransaction(logger: logger) { connection -> InstallMergeOutcome in
            let owner = try await connection.tracedQuery(
                """
                SELECT account_id FROM refresh_tokens
                WHERE token_hash = \(TokenIssuer.hash(refreshToken)) AND revoked_at IS NULL AND expires_at > now()
                """, logger: logger
            ).decode(UUID.self).collectAll().first
            guard let from = owner else { return .invalidToken }
            guard from != into else { return .notAnInstall }
            // Both rows locked in id order: two installs merged into each other at once wait instead of deadlocking.
            let locked = try await connection.tracedQuery(
                "SELECT id, kind, role, entitlements FROM accounts WHERE id IN (\(from), \(into)) ORDER BY id FOR UPDATE", logger: logger
            ).decode((UUID, String, String, [String]).self).collectAll()
            guard let install = locked.first(where: { $0.0 == from }) else { return .invalidToken }
            guard let target = locked.first(where: { $0.0 == into }) else { return .noAccount }
            guard InstallMerge.mayMerge(from: from, kind: install.1, role: install.2, into: into) else { return .notAnInstall }
            let held = target.3
            let carried =
                try await connection.tracedQuery(
                    """
                    UPDATE accounts AS i SET display_name = coalesce(i.display_name, f.display_name), language = coalesce(i.language, f.language),
                        time_zone = coalesce(i.time_zone, f.time_zone), zodiac_sign = coalesce(i.zodiac_sign, f.zodiac_sign)
                    FROM accounts AS f WHERE i.id = \(into) AND f.id = \(from) RETURNING f.entitlements
                    """, logger: logger
                ).decode([String].self).collectAll().first ?? []
            try await connection.tracedQuery("UPDATE payments SET account_id = \(into) WHERE account_id = \(from)", logger: logger)
            // A notification that names the install later is the account's: installs merged into this one follow it too.
            try await connection.tracedQuery("UPDATE install_merges SET into_id = \(into) WHERE into_id = \(from)", logger: logger)
            try await connection.tracedQuery("INSERT INTO install_merges (install_id, into_id) VALUES (\(from), \(into))", logger: logger)
            for entitlement in carried.compactMap(Entitlement.init(rawValue:)) where !held.contains(entitlement.rawValue) {
                _ = try await admin.grant(entitlement, to: into, source: .merge, on: connection)
            }
            try await connection.tracedQuery("DELETE FROM accounts WHERE id = \(from)", logger: logger)
            try await Self.forgetTries(of: from, on: connection, logger: logger)
            try await Outbox.enqueue(
                EventEnvelope(
                    type: EventTypes.userMerged, producer: "auth", key: AccountKey.of(from), payload: UserMerged(fromUserId: from, intoUserId: into)),
                toTopicNamed: usersTopic, on: connection, logger: logger)
            try await ErasedAccountsStore.record(AccountKey.of(from), in: erased, on: connection, logger: logger)
            return .merged(from: from)
        }
    }
}
