import Foundation
import PlatformCore
import PlatformHTTP

/// Listed partners and their availability (B1, B3): public, a token optional. Free slots are `SlotListingRoute`'s.
extension BookingAPI {
    func listPartners(_ input: Operations.ListPartners.Input) async throws -> Operations.ListPartners.Output {
        let paging = try Self.paging(input.query.page, input.query.pageSize)
        let found = try await partners.list(
            listedOnly: true, language: input.query.language?.rawValue, limit: paging.size + 1, offset: paging.offset)
        let shows = try await contactDisclosure()
        return .ok(.init(body: .json(.init(page: found, paging: paging, showingContact: shows))))
    }

    func getPartner(_ input: Operations.GetPartner.Input) async throws -> Operations.GetPartner.Output {
        let partner = try await listedPartner(input.path.partnerId)
        return .ok(.init(body: .json(.init(partner, showingContact: try await contactDisclosure()(partner)))))
    }

    /// Which partners' contact details the caller reads (U6): the account's state is read only for a signed-in
    /// caller, once per request.
    func contactDisclosure() async throws -> @Sendable (Partner) -> Bool {
        let caller = RequestScope.context?.user
        let entitled = try await checkAccount.seesContacts(caller)
        return { [entitled] partner in ContactDisclosure.shows(contactOf: partner, to: caller, entitled: entitled) }
    }

    func getAvailability(_ input: Operations.GetAvailability.Input) async throws -> Operations.GetAvailability.Output {
        .ok(.init(body: .json(.init(try await listedPartner(input.path.partnerId).availability))))
    }

    /// The partner itself or an admin replaces the whole availability (`ReplaceAvailability`); existing bookings stay.
    func setAvailability(_ input: Operations.SetAvailability.Input) async throws -> Operations.SetAvailability.Output {
        let caller = try RequestScope.requireRole([.partner, .admin])
        let id = try Self.uuid(input.path.partnerId, field: "partnerId")
        let replace = ReplaceAvailability(profiles: partners, accounts: checkAccount)
        let leave = try await replace.authorize(caller, for: id)
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let availability = try AvailabilityInput.parse(body)
        try await replace(leave, with: availability)
        slotListings.invalidate(partner: id)
        return .ok(.init(body: .json(.init(availability))))
    }

    /// A listed partner, or 404 (unlisted partners are not shown to the public).
    func listedPartner(_ text: String) async throws -> Partner {
        let id = try Self.uuid(text, field: "partnerId")
        guard let partner = try await partners.find(id), partner.listed else { throw BookingErrors.partnerNotFound }
        return partner
    }
}
