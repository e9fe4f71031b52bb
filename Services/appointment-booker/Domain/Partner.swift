import Foundation

/// A fortune teller (B1). The id is the partner's account id in auth. Listed (shown and bookable) when an
/// admin approved it, its fee is paid, and auth's events say the account is a partner and not banned.
struct Partner: Sendable, Equatable {
    var id: UUID
    var name: String
    var description: String
    var contact: String
    var photoURL: String?
    var languages: [String]
    var timeZone: String
    var approved: Bool
    var feeStatus: PaymentStatus
    /// A paid ad is running now.
    var promoted: Bool
    var listed: Bool
    var availability: Availability
    /// Who marked the fee: `provider` (its signed notification) or `admin` (an override); nil while unpaid.
    var feeMarkedBy: String? = nil
}

/// A paid promotion (B1).
struct Ad: Sendable, Equatable {
    var id: UUID
    var partnerId: UUID
    var startsAt: Date
    var endsAt: Date
    var paymentStatus: PaymentStatus
    var active: Bool
    /// Who marked the payment: `provider` (its signed notification) or `admin` (an override); nil while unpaid.
    var markedBy: String?

    /// What the app hands the payment provider's checkout for this ad; the provider's notification names it.
    var checkoutReference: String { PartnerCheckout.reference(ad: id) }
}

/// The profile fields a partner or an admin may change; nil leaves a field as it is.
struct ProfileChanges: Sendable {
    var name: String?
    var description: String?
    var contact: String?
    var photoURL: String?
    var languages: [String]?
    var timeZone: String?
    var approved: Bool?
    var feeStatus: PaymentStatus?
}

/// Where a partner's fee or an ad's payment stands (B6): the provider's notification or an admin sets it; a refund
/// ends what the payment bought.
enum PaymentStatus: String, Sendable {
    case unpaid, paid, refunded
}
