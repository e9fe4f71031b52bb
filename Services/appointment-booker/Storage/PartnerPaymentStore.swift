import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// The payment provider's notifications for partners (B6), each applied once: a paid fee lists the partner (once
/// approved), a paid ad runs in its window; a refund ends what it paid. A refund that arrives before its payment
/// keeps that payment from marking anything paid.
struct PartnerPaymentStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    struct Notification: Sendable {
        var paymentId: String
        var purchase: PartnerCheckout
        var reference: String
        var status: String
        var amountCents: Int64
    }

    enum Outcome: Equatable, Sendable {
        case applied
        case duplicate
        case unknownPurchase
    }

    func apply(_ notification: Notification) async throws -> Outcome {
        try await client.inTransaction(logger: logger) { connection in
            // A payment's paid and refunded notifications one after the other, so a refund is never overwritten
            // by its payment arriving at the same moment.
            try await connection.tracedQuery("SELECT pg_advisory_xact_lock(hashtext(\(notification.paymentId)))", logger: logger)
            let recorded = try await connection.tracedQuery(
                """
                INSERT INTO partner_payments (payment_id, status, reference, amount_cents)
                VALUES (\(notification.paymentId), \(notification.status), \(notification.reference), \(notification.amountCents))
                ON CONFLICT DO NOTHING RETURNING payment_id
                """, logger: logger
            ).collectAll()
            guard !recorded.isEmpty else { return .duplicate }
            // Nothing of that name: the notification is not kept (the transaction rolls back), so a corrected one
            // can still be applied.
            guard try await exists(notification.purchase, on: connection) else { throw UnknownPurchase() }
            // A paid notification whose refund came first marks nothing.
            if notification.status == "paid" {
                let refunded = try await connection.tracedQuery(
                    "SELECT 1 FROM partner_payments WHERE payment_id = \(notification.paymentId) AND status = 'refunded'", logger: logger
                ).collectAll()
                if !refunded.isEmpty { return .applied }
            }
            switch notification.purchase {
            case .fee(let partner):
                try await connection.tracedQuery(
                    "UPDATE partners SET fee_status = \(notification.status), fee_marked_by = 'provider' WHERE id = \(partner)", logger: logger)
            case .ad(let ad):
                try await connection.tracedQuery(
                    "UPDATE ads SET payment_status = \(notification.status), marked_by = 'provider' WHERE id = \(ad)", logger: logger)
            }
            return .applied
        }
    }

    /// `apply`, with an unknown purchase as an outcome (its transaction rolled back).
    func record(_ notification: Notification) async throws -> Outcome {
        do {
            return try await apply(notification)
        } catch is UnknownPurchase {
            return .unknownPurchase
        }
    }

    private struct UnknownPurchase: Error {}

    private func exists(_ purchase: PartnerCheckout, on connection: PostgresConnection) async throws -> Bool {
        let rows =
            switch purchase {
            case .fee(let partner): try await connection.tracedQuery("SELECT 1 FROM partners WHERE id = \(partner)", logger: logger)
            case .ad(let ad): try await connection.tracedQuery("SELECT 1 FROM ads WHERE id = \(ad)", logger: logger)
            }
        return try await !rows.collectAll().isEmpty
    }
}
