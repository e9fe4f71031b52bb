import Foundation

/// A fortune teller (B1). The id is the partner's account id in auth. Listed (shown and bookable) when an
/// admin approved it, its fee is paid, and auth's events say the account is a partner and not banned.
package struct Partner: Sendable, Equatable {
    package var id: UUID
    package var name: String
    package var description: String
    package var contact: String
    package var photoURL: String?
    package var languages: [String]
    package var timeZone: String
    package var approved: Bool
    package var feeStatus: PaymentStatus
    /// A paid ad is running now.
    package var promoted: Bool
    package var listed: Bool
    package var availability: Availability
    /// Who marked the fee: `provider` (its signed notification) or `admin` (an override); nil while unpaid.
    package var feeMarkedBy: String? = nil

    package init(
        id: UUID, name: String, description: String, contact: String, photoURL: String? = nil, languages: [String], timeZone: String, approved: Bool,
        feeStatus: PaymentStatus, promoted: Bool, listed: Bool, availability: Availability, feeMarkedBy: String? = nil
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.contact = contact
        self.photoURL = photoURL
        self.languages = languages
        self.timeZone = timeZone
        self.approved = approved
        self.feeStatus = feeStatus
        self.promoted = promoted
        self.listed = listed
        self.availability = availability
        self.feeMarkedBy = feeMarkedBy
    }
}

/// A paid promotion (B1).
package struct Ad: Sendable, Equatable {
    package var id: UUID
    package var partnerId: UUID
    package var startsAt: Date
    package var endsAt: Date
    package var paymentStatus: PaymentStatus
    package var active: Bool
    /// Who marked the payment: `provider` (its signed notification) or `admin` (an override); nil while unpaid.
    package var markedBy: String?

    package init(id: UUID, partnerId: UUID, startsAt: Date, endsAt: Date, paymentStatus: PaymentStatus, active: Bool, markedBy: String? = nil) {
        self.id = id
        self.partnerId = partnerId
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.paymentStatus = paymentStatus
        self.active = active
        self.markedBy = markedBy
    }

    /// What the app hands the payment provider's checkout for this ad; the provider's notification names it.
    package var checkoutReference: String { PartnerCheckout.reference(ad: id) }
}

/// The profile fields a partner or an admin may change; nil leaves a field as it is.
package struct ProfileChanges: Sendable {
    package var name: String?
    package var description: String?
    package var contact: String?
    package var photoURL: String?
    package var languages: [String]?
    package var timeZone: String?
    package var approved: Bool?
    package var feeStatus: PaymentStatus?

    package init(
        name: String? = nil, description: String? = nil, contact: String? = nil, photoURL: String? = nil, languages: [String]? = nil,
        timeZone: String? = nil, approved: Bool? = nil, feeStatus: PaymentStatus? = nil
    ) {
        self.name = name
        self.description = description
        self.contact = contact
        self.photoURL = photoURL
        self.languages = languages
        self.timeZone = timeZone
        self.approved = approved
        self.feeStatus = feeStatus
    }
}

/// Where a partner's fee or an ad's payment stands (B6): the provider's notification or an admin sets it; a refund
/// ends what the payment bought.
package enum PaymentStatus: String, Sendable {
    case unpaid, paid, refunded
}
