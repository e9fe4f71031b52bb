import Foundation
import Hummingbird
import NIOCore
import PlatformCore
import PlatformHTTP

/// `GET /v1/horoscope/{sign}` (B4), registered by hand: the free daily horoscope is the same for everyone
/// with the same sign, day and language, so its encoded answer is kept per (sign, day, language) and served
/// from memory for anonymous callers; an answer that suggests places to pray (coordinates given and a bad
/// verdict) is built per request, and a signed-in caller's is kept in their history. It encodes the document's generated `Reading` type and the fuzzer checks it like every operation.
struct HoroscopeRoute {
    let readings: ReadingService
    let cache = EncodedAnswerCache<HoroscopeKey>(ttl: nil, capacity: 1_000)

    func add(to group: RouterGroup<PlatformRequestContext>) {
        group.get("v1/horoscope/:sign", use: read)
    }

    @Sendable func read(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let signId = context.parameters.get("sign") ?? ""
        guard let sign = readings.content.sign(signId) else {
            throw JSONBody.schemaViolation(["sign": "must be one of " + readings.content.signs.map(\.id).joined(separator: ", ")])
        }
        let zone = query["tz"].map(String.init)
        if let zone, !(1...64).contains(RequestText.length(zone)) { throw JSONBody.schemaViolation(["tz": "must be 1 to 64 characters"]) }
        let position = try ReadingRequest.position(latitude: try Self.number(query, "latitude"), longitude: try Self.number(query, "longitude"))
        let day = try ReadingRequest.day(tz: zone, date: query["date"].map(String.init))
        let language = Language(acceptLanguage: request.headers[.acceptLanguage])
        let key = HoroscopeKey(sign: sign.id, day: day, language: language)
        let horoscope = try await ReadDailyHoroscope(readings: readings)(
            sign, on: day, for: context.user, from: ClientAddress.networks(context.remoteAddress).network, near: position)
        let (reading, places) = (horoscope.reading, horoscope.placesToPray)
        if let stored = horoscope.stored {
            // A signed-in caller's horoscope is shared by its id.
            let answer = Components.Schemas.Reading(
                stored.reading, id: stored.id, language: language, shareUrl: readings.sharing.url(shareId: stored.shareId), places: places,
                ceremony: readings.content.ceremony(after: stored.reading))
            return JSONResponse.ok(ByteBuffer(bytes: try JSONEncoder().encode(answer)))
        }
        if places == nil, let body = cache.value(for: key) { return JSONResponse.ok(body) }
        // Anonymous: the daily horoscope is the same for everyone, so its link names the sign and the day.
        let answer = Components.Schemas.Reading(
            reading, id: nil, language: language, shareUrl: readings.sharing.url(sign: sign.id, day: "\(day)"), places: places,
            ceremony: readings.content.ceremony(after: reading))
        let body = ByteBuffer(bytes: try JSONEncoder().encode(answer))
        if places == nil { cache.store(body, for: key) }
        return JSONResponse.ok(body)
    }

    /// A query number as the document states it (400 for one that is not a number).
    static func number(_ query: Parameters, _ name: String) throws -> Double? {
        guard let text = query[Substring(name)] else { return nil }
        guard let value = Double(String(text)), value.isFinite else { throw JSONBody.schemaViolation([name: "must be a number"]) }
        return value
    }
}
