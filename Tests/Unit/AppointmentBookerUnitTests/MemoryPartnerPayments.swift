import Foundation
import Synchronization

@testable import AppointmentBooker

/// The payment provider's notifications kept in memory, with the rules Postgres keeps for `PartnerPaymentStore`: one
/// record per (payment, status), one notification at a time (the advisory lock), nothing kept for an unknown
/// purchase, and the purchase marked by the provider as `PaymentNotification.mark` says.
final class MemoryPartnerPayments: PartnerPayments {
    private let recorded = Mutex<[String: PaymentNotification]>([:])
    let profiles: MemoryPartnerProfiles

    init(profiles: MemoryPartnerProfiles) {
        self.profiles = profiles
    }

    /// The notifications kept, each (payment, status) once.
    var count: Int { recorded.withLock { $0.count } }

    func record(_ notification: PaymentNotification) async throws -> PaymentRecording {
        recorded.withLock { recorded in
            let key = "\(notification.paymentId)\u{1F}\(notification.status.rawValue)"
            guard recorded[key] == nil else { return .duplicate }
            guard profiles.knows(notification.purchase) else { return .unknownPurchase }
            recorded[key] = notification
            let refundRecordedFirst = notification.status == .paid && recorded["\(notification.paymentId)\u{1F}refunded"] != nil
            guard let mark = notification.mark(refundRecordedFirst: refundRecordedFirst) else { return .applied }
            switch notification.purchase {
            case .fee(let partner): profiles.markFee(of: partner, mark, by: .provider)
            case .ad(let ad): profiles.mark(ad: ad, of: nil, mark, by: .provider)
            }
            return .applied
        }
    }
}
