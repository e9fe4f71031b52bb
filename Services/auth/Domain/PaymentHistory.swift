import Foundation

/// A payment the provider notified (U6), as the account's history shows it.
struct Payment: Sendable, Equatable {
    var paymentId: String
    var entitlement: Entitlement
    var status: ProviderPaymentStatus
    var amountCents: Int64
    var receivedAt: Date
}

/// An account's payments, newest first, and the features they pay for (`ProviderPaymentStatus.paidEntitlements`):
/// what the admin's and the account's own payment lists answer.
struct PaymentHistory: Sendable, Equatable {
    let payments: [Payment]

    /// By name, so that the answer does not change order between calls.
    var paidEntitlements: [Entitlement] {
        ProviderPaymentStatus.paidEntitlements(payments.map { ($0.paymentId, $0.entitlement, $0.status) })
            .sorted { $0.rawValue < $1.rawValue }
    }
}
