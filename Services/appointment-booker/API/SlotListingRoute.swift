import Foundation
import Hummingbird
import PlatformCore
import PlatformHTTP

/// `GET /v1/partners/{partnerId}/slots` (B3), registered by hand: answers come from `SlotListingCache` as
/// encoded bodies, measured many times faster than building and encoding a week of slots through the
/// generated layer per request. The answer encodes the document's generated `Slot` type and the fuzzer
/// checks it like every other operation's; the parameters are checked here as the document states them.
struct SlotListingRoute {
    let partners: PartnerStore
    let bookings: BookingStore
    let slots: SlotCalculator
    let configuration: BookingConfiguration
    let cache: SlotListingCache

    func add(to group: RouterGroup<PlatformRequestContext>) {
        group.get("v1/partners/:partnerId/slots", use: list)
    }

    /// The answer's shape, as the document states it.
    struct SlotList: Encodable {
        var partnerId: String
        var timeZone: String
        var slotMinutes: Int
        var slots: [Components.Schemas.Slot]
    }

    @Sendable func list(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let key = try Self.key(request, context: context)
        if let body = cache.value(for: key) { return JSONResponse.ok(body) }
        let body = ByteBuffer(bytes: try JSONEncoder().encode(try await build(key)))
        cache.store(body, for: key)
        return JSONResponse.ok(body)
    }

    /// The parameters as the document states them: 400 naming each that does not match.
    static func key(_ request: Request, context: PlatformRequestContext) throws -> SlotListingKey {
        var problems: [String: String] = [:]
        let partner = context.parameters.get("partnerId").flatMap(UUID.init(uuidString:))
        if partner == nil { problems["partnerId"] = "must be a UUID" }
        let query = request.uri.queryParameters
        let from = query["from"].map(String.init)
        if let from, !CivilDate.isWellFormed(from) { problems["from"] = "must be a day YYYY-MM-DD" }
        var days = 7
        if let text = query["days"] {
            if let value = Int(text), (1...31).contains(value) { days = value } else { problems["days"] = "must be an integer in 1...31" }
        }
        let zone = query["tz"].map(String.init)
        if let zone, !(1...64).contains(RequestText.length(zone)) { problems["tz"] = "must be 1 to 64 characters" }
        guard problems.isEmpty, let partner else { throw JSONBody.schemaViolation(problems) }
        return SlotListingKey(partner: partner, from: from, days: days, zone: zone)
    }

    /// The free slots: the partner's computed slots from `from` (today in its zone) for `days` days, less
    /// those booked, begun (or beginning within the cache's life) or past the booking horizon.
    func build(_ key: SlotListingKey) async throws -> SlotList {
        guard let partner = try await partners.find(key.partner), partner.listed else { throw BookingErrors.partnerNotFound }
        let partnerClock = partner.clock
        let shown = try key.zone.map { try BookingAPI.clock($0, field: "tz") } ?? partnerClock
        let now = BookingTime.seconds(Date())
        // `key` checked the day's shape (400); a day outside the years is 422 here.
        let first = try key.from.map { try CivilDate.requested($0, field: "from") } ?? partnerClock.localDate(of: now)
        let earliest = now + Int(configuration.slotsCacheTTL.components.seconds) + 1
        let choice = SlotChoice(slots: slots, horizonDays: configuration.horizonDays)
        let candidates = choice.offered(from: first, days: key.days, of: partner, after: earliest, now: now)
        let taken = try await bookings.liveIntervals(
            partner: partner.id, from: candidates.first?.start ?? now, to: candidates.last?.end ?? now)
        let free = SlotChoice.free(candidates, taken: taken)
        return SlotList(
            partnerId: AccountKey.of(partner.id), timeZone: shown.zone.identifier, slotMinutes: configuration.slotMinutes,
            slots: free.map { .init(startsAt: shown.format($0.start), endsAt: shown.format($0.end)) })
    }
}
