import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// Admin operations on accounts (U5, U6): search, edit, ban, grant entitlements, payments. Bans and grants
/// publish their events in the same transaction.
struct AdminStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// Where account events go: the catalogue's `auth.users`, or `AUTH_USERS_TOPIC`.
    let usersTopic: String

    func search(prefix: String?, limit: Int, offset: Int) async throws -> [Account] {
        let pattern =
            (prefix ?? "").lowercased().replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
        let rows = try await client.tracedQuery(
            """
            SELECT \(unescaped: AccountStore.columnsWithoutSecrets) FROM accounts
            WHERE coalesce(email, '') LIKE \(pattern) OR lower(coalesce(display_name, '')) LIKE \(pattern)
            ORDER BY email NULLS LAST, id LIMIT \(limit) OFFSET \(offset)
            """, logger: logger)
        return try await AccountStore.decode(rows).map(\.account)
    }

    /// Applies the given changes; returns false when the account does not exist.
    func update(id: UUID, displayName: String?, role: UserRole?, banned: Bool?) async throws -> Bool {
        try await client.inTransaction(logger: logger) { connection -> Bool in
            // The role before the change, read under the row lock the update takes anyway: a role event only for a real change.
            let before = try await connection.tracedQuery("SELECT role FROM accounts WHERE id = \(id) FOR UPDATE", logger: logger)
            var previousRole: String?
            for try await value in before.decode(String.self) { previousRole = value }
            guard let previousRole else { return false }
            let change = AccountChange(displayName: displayName, role: role, banned: banned)
            try await connection.tracedQuery(
                """
                UPDATE accounts SET display_name = coalesce(\(displayName), display_name), role = coalesce(\(role?.rawValue), role),
                    banned = coalesce(\(banned), banned)
                WHERE id = \(id)
                """, logger: logger)
            if let role = change.changedRole(from: previousRole) {
                try await Outbox.enqueue(
                    EventEnvelope(
                        type: EventTypes.userRoleChanged, producer: "auth", key: AccountKey.of(id),
                        payload: UserRoleChanged(userId: id, role: role)),
                    toTopicNamed: usersTopic, on: connection, logger: logger)
            }
            if let banned {
                if change.endsSessions {
                    try await SessionStore.revokeAll(of: id, on: connection, logger: logger)
                }
                try await Outbox.enqueue(
                    EventEnvelope(
                        type: EventTypes.userBanned, producer: "auth", key: AccountKey.of(id), payload: UserBanned(userId: id, banned: banned)),
                    toTopicNamed: usersTopic, on: connection, logger: logger)
            }
            return true
        }
    }

    /// Adds an entitlement (idempotent) and publishes `entitlement.granted`; false when the account does not exist.
    func grant(_ entitlement: Entitlement, to id: UUID, source: EntitlementSource, on connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.tracedQuery(
            """
            UPDATE accounts SET entitlements = CASE WHEN \(entitlement.rawValue) = ANY(entitlements) THEN entitlements
                ELSE array_append(entitlements, \(entitlement.rawValue)) END
            WHERE id = \(id) RETURNING id
            """, logger: logger)
        var found = false
        for try await _ in rows.decode(UUID.self) { found = true }
        guard found else { return false }
        try await Outbox.enqueue(
            EventEnvelope(
                type: EventTypes.entitlementGranted, producer: "auth", key: AccountKey.of(id),
                payload: EntitlementGranted(userId: id, entitlement: entitlement, source: source)),
            toTopicNamed: usersTopic, on: connection, logger: logger)
        return true
    }

    /// Removes an entitlement and publishes `entitlement.revoked` (also when the account did not hold it, so a
    /// service that missed a grant's order still ends revoked); false when the account does not exist.
    func revoke(_ entitlement: Entitlement, from id: UUID) async throws -> Bool {
        try await client.inTransaction(logger: logger) { try await revoke(entitlement, from: id, on: $0) }
    }

    func revoke(_ entitlement: Entitlement, from id: UUID, on connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.tracedQuery(
            "UPDATE accounts SET entitlements = array_remove(entitlements, \(entitlement.rawValue)) WHERE id = \(id) RETURNING id",
            logger: logger)
        var found = false
        for try await _ in rows.decode(UUID.self) { found = true }
        guard found else { return false }
        try await Outbox.enqueue(
            EventEnvelope(
                type: EventTypes.entitlementRevoked, producer: "auth", key: AccountKey.of(id),
                payload: EntitlementRevoked(userId: id, entitlement: entitlement)),
            toTopicNamed: usersTopic, on: connection, logger: logger)
        return true
    }

    func grant(_ entitlement: Entitlement, to id: UUID) async throws -> Bool {
        try await client.inTransaction(logger: logger) { try await grant(entitlement, to: id, source: .admin, on: $0) }
    }

    /// Rows are written through the webhook's checks only; one outside the sets (written by hand) is left out and
    /// logged rather than failing the whole list.
    func payments(of id: UUID) async throws -> PaymentHistory {
        let rows = try await client.tracedQuery(
            """
            SELECT payment_id, entitlement, status, amount_cents, received_at FROM payments
            WHERE account_id = \(id) ORDER BY received_at DESC
            """, logger: logger)
        var result: [Payment] = []
        for try await (paymentId, entitlement, status, amount, received) in rows.decode((String, String, String, Int64, Date).self) {
            guard let entitlement = Entitlement(rawValue: entitlement), let status = ProviderPaymentStatus(rawValue: status) else {
                logger.warning("payment row outside the known sets left out", metadata: ["paymentId": "\(paymentId)"])
                continue
            }
            result.append(Payment(paymentId: paymentId, entitlement: entitlement, status: status, amountCents: amount, receivedAt: received))
        }
        return PaymentHistory(payments: result)
    }

    /// Records a provider notification once (by payment id and status), on the account that holds the payment
    /// (`PaymentOwner`: a merge may have carried it away from the account the notification names). A `paid` payment
    /// grants its entitlement unless its refund came first; a refund is its own notification and revokes the
    /// entitlement unless another payment for it still stands. The owner's row is locked first, so racing
    /// notifications for one account decide in turn.
    func record(
        paymentId: String, accountId: UUID, entitlement: Entitlement, status: ProviderPaymentStatus, amountCents: Int64
    ) async throws
        -> PaymentOutcome
    {
        try await client.inTransaction(logger: logger) { connection -> PaymentOutcome in
            // A merge that held the owner's row lock ends it: the payment is then looked for again, where it went.
            for _ in 0..<3 {
                guard let owner = try await owner(ofPayment: paymentId, named: accountId, on: connection) else { return .unknownAccount }
                let locked = try await connection.tracedQuery("SELECT id FROM accounts WHERE id = \(owner) FOR UPDATE", logger: logger)
                guard try await locked.collectAll().count == 1 else { continue }
                return try await apply(
                    paymentId: paymentId, to: owner, entitlement: entitlement, status: status, amountCents: amountCents, on: connection)
            }
            return .unknownAccount
        }
    }

    /// The account a notification about `paymentId` naming `named` changes, read in one statement.
    private func owner(ofPayment paymentId: String, named: UUID, on connection: PostgresConnection) async throws -> UUID? {
        let rows = try await connection.tracedQuery(
            """
            SELECT (SELECT account_id FROM payments WHERE payment_id = \(paymentId) LIMIT 1),
                (SELECT id FROM accounts WHERE id = \(named)), (SELECT into_id FROM install_merges WHERE install_id = \(named))
            """, logger: logger)
        for try await (recorded, existing, mergedInto) in rows.decode((UUID?, UUID?, UUID?).self) {
            return PaymentOwner.of(recorded: recorded, named: existing, mergedInto: mergedInto)
        }
        return nil
    }

    /// Inserts the notification for `owner` (once) and grants or revokes as the payments that stand say.
    private func apply(
        paymentId: String, to owner: UUID, entitlement: Entitlement, status: ProviderPaymentStatus, amountCents: Int64,
        on connection: PostgresConnection
    ) async throws -> PaymentOutcome {
        let rows = try await connection.tracedQuery(
            """
            INSERT INTO payments (payment_id, account_id, entitlement, status, amount_cents)
            VALUES (\(paymentId), \(owner), \(entitlement.rawValue), \(status.rawValue), \(amountCents))
            ON CONFLICT (payment_id, status) DO NOTHING RETURNING payment_id
            """, logger: logger)
        var inserted = false
        for try await _ in rows.decode(String.self) { inserted = true }
        guard inserted else { return .duplicate }
        let standing = try await standingPayments(for: entitlement, of: owner, on: connection)
        switch status.change(standing: standing) {
        case .grant: _ = try await grant(entitlement, to: owner, source: .payment, on: connection)
        case .revoke: _ = try await revoke(entitlement, from: owner, on: connection)
        case .none: break
        }
        return .recorded
    }

    /// Paid payments for the entitlement that have not been refunded.
    private func standingPayments(for entitlement: Entitlement, of accountId: UUID, on connection: PostgresConnection) async throws -> Int {
        let rows = try await connection.tracedQuery(
            """
            SELECT count(*)::int FROM payments p
            WHERE p.account_id = \(accountId) AND p.entitlement = \(entitlement.rawValue) AND p.status = 'paid'
                AND NOT EXISTS (SELECT 1 FROM payments r WHERE r.payment_id = p.payment_id AND r.status = 'refunded')
            """, logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    /// Up to `limit` accounts of the role `guest` (horoscope guests from before install accounts (U8)).
    func oldGuests(limit: Int) async throws -> [UUID] {
        try await client.tracedQuery("SELECT id FROM accounts WHERE role = 'guest' ORDER BY id LIMIT \(limit)", logger: logger)
            .decode(UUID.self).collectAll()
    }

    /// An old guest becomes an install account of the horoscope app with the role `user` (`user.role-changed` published).
    func makeHoroscopeInstall(_ id: UUID) async throws {
        try await client.tracedQuery(
            "UPDATE accounts SET kind = 'install', app = 'horoscope', install_id = coalesce(install_id, 'guest') WHERE id = \(id)", logger: logger)
        _ = try await update(id: id, displayName: nil, role: .user, banned: nil)
    }
}
