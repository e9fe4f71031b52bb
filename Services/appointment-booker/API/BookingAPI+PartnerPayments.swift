import Foundation
import PlatformCore
import PlatformHTTP

/// Partners pay through the payment provider (B6): the partner buys ads and sees their payment state; the
/// provider's signed notification (checked on the raw body by `PaymentSignatureMiddleware`) marks a fee or an ad
/// paid or refunded. An admin's override is the admin API's, and says so (`markedBy: admin`).
extension BookingAPI {
    func listMyAds(_ input: Operations.ListMyAds.Input) async throws -> Operations.ListMyAds.Output {
        let id = try Self.signedInPartner()
        guard try await partners.find(id) != nil else { throw BookingErrors.noProfile }
        return .ok(.init(body: .json(.init(ads: try await partners.ads(of: id).map(Components.Schemas.Ad.init)))))
    }

    func createMyAd(_ input: Operations.CreateMyAd.Input) async throws -> Operations.CreateMyAd.Output {
        let id = try Self.signedInPartner()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let ad: Ad
        do {
            ad = try await AddAd(ads: partners)(to: id, startsAt: body.startsAt, endsAt: body.endsAt)
        } catch PartnerRefusal.partnerNotFound {
            throw BookingErrors.noProfile  // the caller's own profile, which an admin has not added yet
        }
        return .created(.init(body: .json(.init(ad))))
    }

    func receivePartnerPayment(_ input: Operations.ReceivePartnerPayment.Input) async throws -> Operations.ReceivePartnerPayment.Output {
        guard RequestScope.context?.signatureVerified == true else { throw PaymentSignatureMiddleware.badSignature }
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let paymentId = RequestText.withoutNUL(body.paymentId)
        var problems: [String: String] = [:]
        if paymentId.isEmpty || RequestText.length(body.paymentId) > 100 { problems["paymentId"] = "is 1 to 100 characters" }
        if body.amountCents < 0 { problems["amountCents"] = "must be at least 0" }
        if RequestText.length(body.reference) > 100 { problems["reference"] = "is at most 100 characters" }
        guard problems.isEmpty else { throw JSONBody.schemaViolation(problems) }
        let status: PaymentNotification.Status =
            switch body.status {
            case .paid: .paid
            case .refunded: .refunded
            }
        let record = RecordPartnerPayment(payments: payments)
        let outcome = try await record(paymentId: paymentId, reference: body.reference, status: status, amountCents: body.amountCents)
        switch outcome {
        case .applied(let purchase):
            // A paid or refunded fee lists the partner or not: its slots are asked again.
            if case .fee(let partner) = purchase { slotListings.invalidate(partner: partner) }
            return .ok(.init(body: .json(.init(message: "payment recorded"))))
        case .duplicate: return .ok(.init(body: .json(.init(message: "payment already recorded"))))
        }
    }
}
