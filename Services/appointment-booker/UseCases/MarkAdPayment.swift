import Foundation

/// An admin's override of an ad's payment status (B6), marked as the admin's so it is told apart from the payment
/// provider's notifications.
package struct MarkAdPayment: Sendable {
    package let ads: any PartnerAds

    package init(ads: any PartnerAds) {
        self.ads = ads
    }

    package func callAsFunction(_ ad: UUID, of partner: UUID, as status: PaymentStatus) async throws -> Ad {
        guard let marked = try await ads.setAdPayment(partner: partner, ad: ad, status: status) else { throw PartnerRefusal.adNotFound }
        return marked
    }
}
