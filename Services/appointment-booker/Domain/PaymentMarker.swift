/// Who marked a partner's fee or an ad's payment (B6): the payment provider's signed notification, or an admin's
/// override, which says it is one so the two are told apart.
package enum PaymentMarker: String, Sendable {
    case provider, admin

    /// The marker a mark of `status` shows: this one, or none for unpaid (nothing was paid or refunded).
    package func marking(_ status: PaymentStatus) -> PaymentMarker? {
        status == .unpaid ? nil : self
    }
}
