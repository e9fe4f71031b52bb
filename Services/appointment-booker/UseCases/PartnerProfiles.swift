import Foundation

/// What changing partners' profiles and availability needs from storage: `PartnerStore` in Postgres, a memory one in
/// the unit tests.
package protocol PartnerProfiles: PartnerDirectory {
    /// Adds the profile when auth's events made the account a partner (read in the same transaction as the insert).
    func create(_ partner: NewPartner) async throws -> PartnerCreation

    /// Applies the fields given; nil when there is no such partner. A fee status set here is an admin's override
    /// and is marked so (`feeMarkedBy: admin`; none when unpaid).
    func update(_ id: UUID, _ changes: ProfileChanges) async throws -> Partner?

    /// Replaces the availability; false when there is no such partner.
    func setAvailability(_ id: UUID, _ availability: Availability) async throws -> Bool
}

package enum PartnerCreation: Equatable, Sendable {
    case created(Partner)
    /// auth's events have not made the account a partner.
    case notAPartner
    case exists
}

/// What a partner's ads need from storage.
package protocol PartnerAds: Sendable {
    /// The new ad, unpaid; nil when there is no such partner.
    func addAd(partner: UUID, startsAt: Date, endsAt: Date) async throws -> Ad?

    /// An admin's override of the ad's payment, marked so (`markedBy: admin`; none when unpaid); nil when the partner
    /// has no such ad.
    func setAdPayment(partner: UUID, ad: UUID, status: PaymentStatus) async throws -> Ad?
}
