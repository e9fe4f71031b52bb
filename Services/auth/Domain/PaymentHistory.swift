import Foundation
import PlatformEvents

/// A payment the provider notified (U6), as the account's history shows it.
package struct Payment: Sendable, Equatable {
    package var paymentId: String
    package var entitlement: Entitlement
    package var status: ProviderPaymentStatus
    package var amountCents: Int64
    package var receivedAt: Date

    package init(paymentId: String, entitlement: Entitlement, status: ProviderPaymentStatus, amountCents: Int64, receivedAt: Date) {
        self.paymentId = paymentId
        self.entitlement = entitlement
        self.status = status
        self.amountCents = amountCents
        self.receivedAt = receivedAt
    }
}

/// An account's payments, newest first, and the features they pay for (`ProviderPaymentStatus.paidEntitlements`):
/// what the admin's and the account's own payment lists answer.
package struct PaymentHistory: Sendable, Equatable {
    package let payments: [Payment]

    package init(payments: [Payment]) {
        self.payments = payments
    }

    /// By name, so that the answer does not change order between calls.
    package var paidEntitlements: [Entitlement] {
        ProviderPaymentStatus.paidEntitlements(payments.map { ($0.paymentId, $0.entitlement, $0.status) })
            .sorted { $0.rawValue < $1.rawValue }
    }
}
