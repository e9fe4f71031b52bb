import Foundation

/// The payment provider's notification that a partner's purchase (B6), its fee or an ad, was paid or refunded.
/// Each (payment, status) counts once.
struct PaymentNotification: Sendable, Equatable {
    enum Status: String, Sendable {
        case paid, refunded
    }

    var paymentId: String
    var purchase: PartnerCheckout
    /// The checkout reference as the provider sent it.
    var reference: String
    var status: Status
    var amountCents: Int64

    /// The payment status the notification gives its purchase; nil for a payment whose refund was recorded before
    /// it: the refund already ended what the payment bought, and a late payment must not revive it.
    func mark(refundRecordedFirst: Bool) -> PaymentStatus? {
        switch status {
        case .refunded: .refunded
        case .paid: refundRecordedFirst ? nil : .paid
        }
    }
}
