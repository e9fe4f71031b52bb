import Foundation
import PlatformCore
import PlatformHTTP

/// The admin's partner management (B1: addPartner, editPartner, checkPayment, addAds, payForAds) and every
/// booking (B2). The `/v1/admin` paths need the admin role, checked by the middleware before the request is read.
extension BookingAPI {
    func listAllPartners(_ input: Operations.ListAllPartners.Input) async throws -> Operations.ListAllPartners.Output {
        _ = try RequestScope.requireRole([.admin])
        let paging = try Self.paging(input.query.page, input.query.pageSize)
        let found = try await partners.list(listedOnly: false, language: nil, limit: paging.size + 1, offset: paging.offset)
        return .ok(.init(body: .json(.init(page: found, paging: paging))))
    }

    func createPartner(_ input: Operations.CreatePartner.Input) async throws -> Operations.CreatePartner.Output {
        _ = try RequestScope.requireRole([.admin])
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let id = try Self.uuid(body.accountId, field: "accountId")
        let profile = try ProfileInput.check(
            name: body.name, description: body.description, contact: body.contact, photoURL: body.photoUrl,
            languages: body.languages.map(\.rawValue), timeZone: body.timeZone)
        let partner = try await AddPartner(profiles: partners, accounts: checkAccount.states)(
            NewPartner(
                id: id, name: profile.name ?? body.name, description: profile.description ?? "", contact: profile.contact ?? body.contact,
                photoURL: profile.photoURL, languages: profile.languages ?? [], timeZone: body.timeZone))
        return .created(.init(headers: .init(location: "/v1/partners/\(partner.id)"), body: .json(.init(partner))))
    }

    func updatePartner(_ input: Operations.UpdatePartner.Input) async throws -> Operations.UpdatePartner.Output {
        _ = try RequestScope.requireRole([.admin])
        let id = try Self.uuid(input.path.partnerId, field: "partnerId")
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        var changes = try ProfileInput.check(
            name: body.name, description: body.description, contact: body.contact, photoURL: body.photoUrl,
            languages: body.languages?.map(\.rawValue), timeZone: body.timeZone)
        changes.approved = body.approved
        changes.feeStatus = body.feeStatus.flatMap { PaymentStatus(rawValue: $0.rawValue) }
        let partner = try await EditPartner(profiles: partners)(id, changes, by: .admin)
        slotListings.invalidate(partner: id)
        return .ok(.init(body: .json(.init(partner))))
    }

    func listAds(_ input: Operations.ListAds.Input) async throws -> Operations.ListAds.Output {
        _ = try RequestScope.requireRole([.admin])
        let id = try Self.uuid(input.path.partnerId, field: "partnerId")
        guard try await partners.find(id) != nil else { throw BookingErrors.partnerNotFound }
        return .ok(.init(body: .json(.init(ads: try await partners.ads(of: id).map(Components.Schemas.Ad.init)))))
    }

    func createAd(_ input: Operations.CreateAd.Input) async throws -> Operations.CreateAd.Output {
        _ = try RequestScope.requireRole([.admin])
        let id = try Self.uuid(input.path.partnerId, field: "partnerId")
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let ad = try await AddAd(ads: partners)(to: id, startsAt: body.startsAt, endsAt: body.endsAt)
        return .created(.init(body: .json(.init(ad))))
    }

    func updateAd(_ input: Operations.UpdateAd.Input) async throws -> Operations.UpdateAd.Output {
        _ = try RequestScope.requireRole([.admin])
        let partner = try Self.uuid(input.path.partnerId, field: "partnerId")
        let adId = try Self.uuid(input.path.adId, field: "adId")
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let status = PaymentStatus(rawValue: body.paymentStatus.rawValue) ?? .unpaid
        let ad = try await MarkAdPayment(ads: partners)(adId, of: partner, as: status)
        return .ok(.init(body: .json(.init(ad))))
    }

    func listAllBookings(_ input: Operations.ListAllBookings.Input) async throws -> Operations.ListAllBookings.Output {
        _ = try RequestScope.requireRole([.admin])
        let paging = try Self.paging(input.query.page, input.query.pageSize)
        let partner = try input.query.partnerId.map { try Self.uuid($0, field: "partnerId") }
        let found = try await bookings.list(.anyone(partner: partner), limit: paging.size + 1, offset: paging.offset)
        return .ok(.init(body: .json(.init(page: found, paging: paging))))
    }
}
