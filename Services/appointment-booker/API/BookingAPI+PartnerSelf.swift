import Foundation
import PlatformHTTP

/// The signed-in partner's own profile and bookings (B1, B2). The `/v1/partner` paths need the partner role
/// (checked by the middleware before the request is read); the partner is the token's subject.
extension BookingAPI {
    func getMyPartnerProfile(_ input: Operations.GetMyPartnerProfile.Input) async throws -> Operations.GetMyPartnerProfile.Output {
        let id = try Self.signedInPartner()
        guard let partner = try await partners.find(id) else { throw BookingErrors.noProfile }
        var profile = Components.Schemas.Partner(partner)
        profile.feeCheckoutReference = PartnerCheckout.reference(fee: partner.id)
        return .ok(.init(body: .json(profile)))
    }

    func updateMyPartnerProfile(_ input: Operations.UpdateMyPartnerProfile.Input) async throws -> Operations.UpdateMyPartnerProfile.Output {
        let id = try Self.signedInPartner()
        try await checkActivePartner(try RequestScope.requireUser())
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let changes = try ProfileInput.check(
            name: body.name, description: body.description, contact: body.contact, photoURL: body.photoUrl,
            languages: body.languages?.map(\.rawValue), timeZone: body.timeZone)
        let partner: Partner
        do {
            partner = try await EditPartner(profiles: partners)(id, changes, by: .partner)
        } catch PartnerRefusal.partnerNotFound {
            throw BookingErrors.noProfile  // the caller's own profile, which an admin has not added yet
        }
        slotListings.invalidate(partner: id)
        return .ok(.init(body: .json(.init(partner))))
    }

    func listPartnerBookings(_ input: Operations.ListPartnerBookings.Input) async throws -> Operations.ListPartnerBookings.Output {
        let id = try Self.signedInPartner()
        let paging = try Self.paging(input.query.page, input.query.pageSize)
        let found = try await bookings.list(.partner(id), limit: paging.size + 1, offset: paging.offset)
        return .ok(.init(body: .json(.init(page: found, paging: paging))))
    }

    /// The signed-in partner's id; 403 for a partner token whose subject is not an auth account id.
    static func signedInPartner() throws -> UUID {
        let user = try RequestScope.requireRole([.partner])
        guard let id = UUID(uuidString: user.id) else { throw APIError.forbidden }
        return id
    }
}
