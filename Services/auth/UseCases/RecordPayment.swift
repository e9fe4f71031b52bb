import Foundation

/// A payment provider's notification (U6): applied once per payment id and status; a paid payment grants its
/// feature unless its refund came first, a refund takes the feature back unless another paid payment still stands
/// (`ProviderPaymentStatus.change(standing:)`).
struct RecordPayment: Sendable {
    let payments: any PaymentLedger

    struct Notification: Sendable, Equatable {
        var paymentId: String
        var accountId: UUID
        var entitlement: Entitlement
        var status: ProviderPaymentStatus
        var amountCents: Int64
    }

    enum Outcome: Equatable {
        case recorded
        /// The same payment id and status came before; nothing changed.
        case duplicate
    }

    func run(_ notification: Notification) async throws -> Outcome {
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
