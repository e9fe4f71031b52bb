/// What recording the payment provider's notifications needs from storage: `PartnerPaymentStore` in Postgres, a
/// memory one in the unit tests.
package protocol PartnerPayments: Sendable {
    /// Records the notification once per (payment, status) and marks its purchase as
    /// `PaymentNotification.mark(refundRecordedFirst:)` says, the refund looked up in the same transaction (one at
    /// a time per payment). An unknown purchase keeps nothing.
    func record(_ notification: PaymentNotification) async throws -> PaymentRecording
}

package enum PaymentRecording: Equatable, Sendable {
    case applied
    /// This payment's notification of this status was recorded before.
    case duplicate
    case unknownPurchase
}
