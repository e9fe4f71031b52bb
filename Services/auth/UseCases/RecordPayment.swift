import Foundation
import PlatformEvents

/// A payment provider's notification (U6): applied once per payment id and status; a paid payment grants its
/// feature unless its refund came first, a refund takes the feature back unless another paid payment still stands
/// (`ProviderPaymentStatus.change(standing:)`).
package struct RecordPayment: Sendable {
    package let payments: any PaymentLedger

    package init(payments: any PaymentLedger) {
        self.payments = payments
    }

    package struct Notification: Sendable, Equatable {
        package var paymentId: String
        package var accountId: UUID
        package var entitlement: Entitlement
        package var status: ProviderPaymentStatus
        package var amountCents: Int64

        package init(paymentId: String, accountId: UUID, entitlement: Entitlement, status: ProviderPaymentStatus, amountCents: Int64) {
            self.paymentId = paymentId
            self.accountId = accountId
            self.entitlement = entitlement
            self.status = status
            self.amountCents = amountCents
        }
    }

    package enum Outcome: Equatable {
        case recorded
        /// The same payment id and status came before; nothing changed.
        case duplicate
    }

    package func run(_ notification: Notification) async throws -> Outcome {
        switch try await payments.record(
            paymentId: notification.paymentId, accountId: notification.accountId, entitlement: notification.entitlement,
            status: notification.status, amountCents: notification.amountCents)
        {
        case .recorded: .recorded
        case .duplicate: .duplicate
        case .unknownAccount: throw AccountRefusal.unknownAccount
        }
    }
}
