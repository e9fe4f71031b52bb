/// Records the payment provider's notification for a partner's purchase (B6). The reference must name a fee or an ad
/// (`PartnerCheckout`); each (payment, status) counts once; a payment whose refund came first marks nothing
/// (`PaymentNotification.mark`, applied by the store under its lock on the payment).
package struct RecordPartnerPayment: Sendable {
    package enum Outcome: Equatable, Sendable {
        /// Recorded, and its purchase marked (unless its refund came first).
        case applied(PartnerCheckout)
        /// This payment's notification of this status was recorded before; nothing changed.
        case duplicate
    }

    package let payments: any PartnerPayments

    package init(payments: any PartnerPayments) {
        self.payments = payments
    }

    package func callAsFunction(
        paymentId: String, reference: String, status: PaymentNotification.Status, amountCents: Int64
    ) async throws -> Outcome {
        guard let purchase = PartnerCheckout(reference: reference) else { throw PaymentRefusal.unknownPurchase }
        let notification = PaymentNotification(
            paymentId: paymentId, purchase: purchase, reference: reference, status: status, amountCents: amountCents)
        switch try await payments.record(notification) {
        case .applied: return .applied(purchase)
        case .duplicate: return .duplicate
        case .unknownPurchase: throw PaymentRefusal.unknownPurchase
        }
    }
}
