/// What the payment provider says of a payment (U6), and what that does to the feature it pays for.
enum PaymentStatus: String, Sendable, CaseIterable {
    case paid
    case refunded

    enum EntitlementChange: Equatable {
        case grant
        case revoke
        case none
    }

    /// A paid payment grants its feature while it stands (a refund that came first keeps it from granting);
    /// a refund takes the feature back unless another paid payment for it stands.
    /// `standing`: the account's paid, unrefunded payments for the feature, this notification counted.
    func change(standing: Int) -> EntitlementChange {
        switch self {
        case .paid: standing > 0 ? .grant : .none
        case .refunded: standing == 0 ? .revoke : .none
        }
    }
}
