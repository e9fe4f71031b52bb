import Foundation

/// Adds an ad to a partner (B1, B6), bought by the partner or added by an admin: unpaid until the payment provider
/// or an admin marks it, and only in a window `AdWindow` allows.
package struct AddAd: Sendable {
    package let ads: any PartnerAds

    package init(ads: any PartnerAds) {
        self.ads = ads
    }

    package func callAsFunction(to partner: UUID, startsAt: Date, endsAt: Date) async throws -> Ad {
        let problems = AdWindow.problems(startsAt: startsAt, endsAt: endsAt)
        guard problems.isEmpty else { throw PartnerRefusal.adWindow(problems) }
        guard let ad = try await ads.addAd(partner: partner, startsAt: startsAt, endsAt: endsAt) else { throw PartnerRefusal.partnerNotFound }
        return ad
    }
}
