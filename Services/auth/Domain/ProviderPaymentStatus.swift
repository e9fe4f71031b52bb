import PlatformEvents

/// What the payment provider says of a payment (U6), and what that does to the feature it pays for. (appointment-booker's
/// `PaymentStatus` is a partner fee's state, a different set.)
package enum ProviderPaymentStatus: String, Sendable, CaseIterable {
    case paid
    case refunded

    package enum EntitlementChange: Equatable {
        case grant
        case revoke
        case none
    }

    /// A paid payment grants its feature while it stands (a refund that came first keeps it from granting);
    /// a refund takes the feature back unless another paid payment for it stands.
    /// `standing`: the account's paid, unrefunded payments for the feature, this notification counted.
    package func change(standing: Int) -> EntitlementChange {
        switch self {
        case .paid: standing > 0 ? .grant : .none
        case .refunded: standing == 0 ? .revoke : .none
        }
    }

    /// The features an account's payments pay for: those with a paid payment that has no refund.
    package static func paidEntitlements(
        _ payments: [(paymentId: String, entitlement: Entitlement, status: ProviderPaymentStatus)]
    ) -> Set<Entitlement> {
        let refunded = Set(payments.filter { $0.status == .refunded }.map(\.paymentId))
        return Set(payments.filter { $0.status == .paid && !refunded.contains($0.paymentId) }.map(\.entitlement))
    }
}
