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

    func apply(_ notification: PaymentNotification) async throws -> PaymentRecording {
        try await client.inTransaction(logger: logger) { connection in
            // A payment's paid and refunded notifications one after the other, so a refund is never overwritten
            // by its payment arriving at the same moment.
            try await connection.tracedQuery("SELECT pg_advisory_xact_lock(hashtext(\(notification.paymentId)))", logger: logger)
            let recorded = try await connection.tracedQuery(
                """
                INSERT INTO partner_payments (payment_id, status, reference, amount_cents)
                VALUES (\(notification.paymentId), \(notification.status.rawValue), \(notification.reference), \(notification.amountCents))
                ON CONFLICT DO NOTHING RETURNING payment_id
                """, logger: logger
            ).collectAll()
            guard !recorded.isEmpty else { return .duplicate }
            // Nothing of that name: the notification is not kept (the transaction rolls back), so a corrected one
            // can still be applied.
            guard try await exists(notification.purchase, on: connection) else { throw UnknownPurchase() }
            // A paid notification whose refund came first marks nothing (`PaymentNotification.mark`).
            var refundRecordedFirst = false
            if notification.status == .paid {
                refundRecordedFirst = try await !connection.tracedQuery(
                    "SELECT 1 FROM partner_payments WHERE payment_id = \(notification.paymentId) AND status = 'refunded'", logger: logger
                ).collectAll().isEmpty
            }
            guard let mark = notification.mark(refundRecordedFirst: refundRecordedFirst) else { return .applied }
            let marker = PaymentMarker.provider.marking(mark)?.rawValue
            switch notification.purchase {
            case .fee(let partner):
                try await connection.tracedQuery(
                    "UPDATE partners SET fee_status = \(mark.rawValue), fee_marked_by = \(marker)::text WHERE id = \(partner)", logger: logger)
            case .ad(let ad):
                try await connection.tracedQuery(
                    "UPDATE ads SET payment_status = \(mark.rawValue), marked_by = \(marker)::text WHERE id = \(ad)", logger: logger)
            }
            return .applied
        }
    }

    /// `apply`, with an unknown purchase as an outcome (its transaction rolled back).
    func record(_ notification: PaymentNotification) async throws -> PaymentRecording {
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
