import Foundation
import Shared

/// Listed partners, their availability and free slots (B1, B3): public, a token optional.
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
        return .ok(.init(body: .json(.init(availability))))
    }

    func listSlots(_ input: Operations.ListSlots.Input) async throws -> Operations.ListSlots.Output {
        let partner = try await listedPartner(input.path.partnerId)
        let days = input.query.days ?? 7
        guard (1...31).contains(days) else { throw JSONBody.schemaViolation(["days": "must be in 1...31"]) }
        let partnerClock = Self.clock(of: partner)
        let shown = try input.query.tz.map { try Self.clock($0, field: "tz") } ?? partnerClock
        let now = Self.seconds(Date())
        let first: LocalDate
        if let from = input.query.from {
            guard LocalDate.isWellFormed(from) else { throw JSONBody.schemaViolation(["from": "must be a day YYYY-MM-DD"]) }
            guard let day = LocalDate(parsing: from) else {
                throw JSONBody.validationError(["from": "must be in the years \(LocalDate.years.lowerBound)...\(LocalDate.years.upperBound)"])
            }
            first = day
        } else {
            first = partnerClock.localDate(of: now)
        }
        let candidates = slots.slots(from: first, days: days, availability: partner.availability, clock: partnerClock)
            .filter { $0.start > now && $0.start <= now + configuration.horizonDays * 86_400 }
        let taken = try await bookings.liveIntervals(
            partner: partner.id, from: candidates.first?.start ?? now, to: candidates.last?.end ?? now)
        let free = candidates.filter { slot in !taken.contains { $0.overlaps(slot) } }
        return .ok(
            .init(
                body: .json(
                    .init(
                        partnerId: AccountKey.of(partner.id), timeZone: shown.zone.identifier, slotMinutes: configuration.slotMinutes,
                        slots: free.map { .init(startsAt: shown.format($0.start), endsAt: shown.format($0.end)) }))))
    }

    /// A listed partner, or 404 (unlisted partners are not shown to the public).
    func listedPartner(_ text: String) async throws -> Partner {
        let id = try Self.uuid(text, field: "partnerId")
        guard let partner = try await partners.find(id), partner.listed else { throw BookingErrors.partnerNotFound }
        return partner
    }
}
