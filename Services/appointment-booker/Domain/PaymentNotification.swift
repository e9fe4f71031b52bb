import Foundation

/// The payment provider's notification that a partner's purchase (B6), its fee or an ad, was paid or refunded.
/// Each (payment, status) counts once.
package struct PaymentNotification: Sendable, Equatable {
    package enum Status: String, Sendable {
        case paid, refunded
    }

    package var paymentId: String
    package var purchase: PartnerCheckout
    /// The checkout reference as the provider sent it.
    package var reference: String
    package var status: Status
    package var amountCents: Int64

    package init(paymentId: String, purchase: PartnerCheckout, reference: String, status: Status, amountCents: Int64) {
        self.paymentId = paymentId
        self.purchase = purchase
        self.reference = reference
        self.status = status
        self.amountCents = amountCents
    }

    /// The payment status the notification gives its purchase; nil for a payment whose refund was recorded before
    /// it: the refund already ended what the payment bought, and a late payment must not revive it.
    package func mark(refundRecordedFirst: Bool) -> PaymentStatus? {
        switch status {
        case .refunded: .refunded
        case .paid: refundRecordedFirst ? nil : .paid
        }
    }
}
