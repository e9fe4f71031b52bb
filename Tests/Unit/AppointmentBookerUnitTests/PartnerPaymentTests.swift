import Foundation
import Testing

@testable import AppointmentBooker

/// The payment provider's notifications for partners (B6) against memory storage: a fee or an ad marked paid or
/// refunded by the provider, each notification once, unknown purchases keep nothing, and a payment whose refund came
/// first marks nothing.
@Suite("appointment-booker: partners' payments (use case)")
struct PartnerPaymentTests {
    static let now = Date(timeIntervalSince1970: 1_894_006_800)

    /// A partner with a profile and an ad running now once paid, and the stores over them.
    static func partnerWithAd() async throws -> (MemoryPartnerPayments, UUID, Ad) {
        let id = UUID()
        let profiles = MemoryPartnerProfiles(roles: [id: .partner], clock: { now })
        _ = try await AddPartner(profiles: profiles, accounts: profiles)(PartnerApplicationTests.profile(id))
        _ = try await profiles.update(id, ProfileChanges(approved: true))
        let ad = try await AddAd(ads: profiles)(to: id, startsAt: now.addingTimeInterval(-3_600), endsAt: now.addingTimeInterval(86_400))
        return (MemoryPartnerPayments(profiles: profiles), id, ad)
    }

    static func notify(
        _ payments: MemoryPartnerPayments, _ paymentId: String, _ reference: String, _ status: PaymentNotification.Status
    ) async throws -> RecordPartnerPayment.Outcome {
        try await RecordPartnerPayment(payments: payments)(paymentId: paymentId, reference: reference, status: status, amountCents: 4_900)
    }

    @Test("B6: a notification marks what it says; a paid one after its payment's refund marks nothing")
    func paymentAfterItsRefundMarksNothing() {
        func notification(_ status: PaymentNotification.Status) -> PaymentNotification {
            PaymentNotification(paymentId: "pay_1", purchase: .ad(UUID()), reference: "ad:x", status: status, amountCents: 1)
        }
        #expect(notification(.paid).mark(refundRecordedFirst: false) == .paid)
        #expect(notification(.paid).mark(refundRecordedFirst: true) == nil)
        #expect(notification(.refunded).mark(refundRecordedFirst: false) == .refunded)
        #expect(notification(.refunded).mark(refundRecordedFirst: true) == .refunded)
    }

    @Test("B6: an admin's mark is an override and says so, the provider's says it is the provider's; unpaid is nobody's")
    func whoMarkedAPayment() {
        #expect(PaymentMarker.admin.marking(.paid) == .admin && PaymentMarker.admin.marking(.refunded) == .admin)
        #expect(PaymentMarker.provider.marking(.refunded) == .provider)
        #expect(PaymentMarker.admin.marking(.unpaid) == nil && PaymentMarker.provider.marking(.unpaid) == nil)
    }

    @Test("B6: the fee paid through the provider lists the partner, marked by the provider; the same notification again changes nothing")
    func feePaidOnce() async throws {
        let (payments, id, _) = try await Self.partnerWithAd()
        let reference = PartnerCheckout.reference(fee: id)
        #expect(try await Self.notify(payments, "pay_fee", reference, .paid) == .applied(.fee(partner: id)))
        var partner = try #require(try await payments.profiles.find(id))
        #expect(partner.feeStatus == .paid && partner.feeMarkedBy == "provider" && partner.listed)
        #expect(try await Self.notify(payments, "pay_fee", reference, .paid) == .duplicate)
        #expect(try await Self.notify(payments, "pay_fee", reference, .refunded) == .applied(.fee(partner: id)))
        partner = try #require(try await payments.profiles.find(id))
        #expect(partner.feeStatus == .refunded && !partner.listed)
        #expect(payments.count == 2)
    }

    @Test("B6: a paid ad runs in its window and its refund ends it")
    func adPaidThenRefunded() async throws {
        let (payments, id, ad) = try await Self.partnerWithAd()
        _ = try await Self.notify(payments, "pay_ad", ad.checkoutReference, .paid)
        #expect(payments.profiles.ads.first?.active == true && payments.profiles.ads.first?.markedBy == "provider")
        #expect(try await payments.profiles.find(id)?.promoted == true)
        _ = try await Self.notify(payments, "pay_ad", ad.checkoutReference, .refunded)
        #expect(payments.profiles.ads.first?.paymentStatus == .refunded && payments.profiles.ads.first?.active == false)
    }

    @Test("B6: a refund that arrives before its payment keeps the payment from marking the ad paid")
    func refundBeforeItsPayment() async throws {
        let (payments, _, ad) = try await Self.partnerWithAd()
        #expect(try await Self.notify(payments, "pay_ad", ad.checkoutReference, .refunded) == .applied(.ad(ad.id)))
        #expect(try await Self.notify(payments, "pay_ad", ad.checkoutReference, .paid) == .applied(.ad(ad.id)))
        #expect(payments.profiles.ads.first?.paymentStatus == .refunded && payments.profiles.ads.first?.active == false)
        #expect(payments.count == 2, "both notifications are kept, so neither applies twice")
    }

    @Test("B6: a reference naming no fee and no ad is refused and nothing is kept, so a corrected one still applies")
    func unknownPurchase() async throws {
        let (payments, id, _) = try await Self.partnerWithAd()
        for reference in ["ad:\(UUID().uuidString.lowercased())", "fee:\(UUID().uuidString.lowercased())", "gift:card", "ad:not-a-uuid"] {
            await #expect(throws: PaymentRefusal.unknownPurchase, "\(reference)") {
                _ = try await Self.notify(payments, "pay_1", reference, .paid)
            }
        }
        #expect(payments.count == 0)
        #expect(try await Self.notify(payments, "pay_1", PartnerCheckout.reference(fee: id), .paid) == .applied(.fee(partner: id)))
    }
}
