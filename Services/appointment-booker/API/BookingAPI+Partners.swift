import Foundation
import Shared

/// Listed partners and their availability (B1, B3): public, a token optional. Free slots are `SlotListingRoute`'s.
extension BookingAPI {
    func listPartners(_ input: Operations.ListPartners.Input) async throws -> Operations.ListPartners.Output {
        let paging = try Self.paging(input.query.page, input.query.pageSize)
        let found = try await partners.list(
            listedOnly: true, language: input.query.language?.rawValue, limit: paging.size + 1, offset: paging.offset)
        return .ok(.init(body: .json(.init(page: found, paging: paging))))
    }

    func getPartner(_ input: Operations.GetPartner.Input) async throws -> Operations.GetPartner.Output {
        .ok(.init(body: .json(.init(try await listedPartner(input.path.partnerId)))))
    }

    func getAvailability(_ input: Operations.GetAvailability.Input) async throws -> Operations.GetAvailability.Output {
        .ok(.init(body: .json(.init(try await listedPartner(input.path.partnerId).availability))))
    }

    /// The partner itself or an admin replaces the whole availability; existing bookings stay as they are.
    func setAvailability(_ input: Operations.SetAvailability.Input) async throws -> Operations.SetAvailability.Output {
        let caller = try RequestScope.requireRole([.partner, .admin])
        let id = try Self.uuid(input.path.partnerId, field: "partnerId")
        guard caller.role == .admin || AccountKey.of(caller.id) == AccountKey.of(id) else { throw APIError.forbidden }
        if caller.role == .partner { try await checkActivePartner(caller) }
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let availability = try AvailabilityInput.parse(body)
        guard try await partners.setAvailability(id, availability) else { throw BookingErrors.partnerNotFound }
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
