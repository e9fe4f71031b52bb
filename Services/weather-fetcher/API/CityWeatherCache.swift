import Foundation
import NIOCore
import PlatformCore
import PlatformHTTP

/// Each city's weather answer for a few seconds (`WEATHER_VIEW_CACHE_MS`), so a popular city costs three
/// database round trips and one report decoding per few seconds rather than per request. Signed-in requests
/// reuse it too: their answer is one of the entry's two personal bodies, so they encode nothing. An entry never
/// outlives the wall-clock minute it was made in, so the hour list never shows a past hour; "updated N minutes ago"
/// and a new refresh or warning reach readers at most one TTL late.
typealias CityWeatherCache = TTLCache<Int, CityWeatherEntry>

struct CityWeatherEntry: Sendable {
    /// The answer without the caller's own part (`isFavourite` nil).
    var view: CityWeatherDTO
    /// `view` encoded, as anonymous callers get it.
    var anonymousBody: ByteBuffer
    /// `view` with `isFavourite` true, encoded, as a signed-in caller whose favourite it is gets it.
    var favouriteBody: ByteBuffer
    /// `view` with `isFavourite` false, encoded.
    var notFavouriteBody: ByteBuffer

    /// Encodes the three answers once, each exactly as `encoder` encodes the generated type.
    init(view: CityWeatherDTO, encoder: JSONEncoder) throws {
        self.view = view
        anonymousBody = ByteBuffer(bytes: try encoder.encode(view))
        var personal = view
        personal.isFavourite = true
        favouriteBody = ByteBuffer(bytes: try encoder.encode(personal))
        personal.isFavourite = false
        notFavouriteBody = ByteBuffer(bytes: try encoder.encode(personal))
    }

    /// The answer for a signed-in caller.
    func personalBody(isFavourite: Bool) -> ByteBuffer { isFavourite ? favouriteBody : notFavouriteBody }
}

extension TTLCache where Key == Int, Value == CityWeatherEntry {
    /// Bounded by the catalogue's size, with room to spare.
    static func views(ttl: Duration) -> CityWeatherCache { CityWeatherCache(ttl: ttl, capacity: 100_000) }

    /// Remembers a freshly built answer (when caching is on) until the end of the minute `now` falls in at the
    /// latest, and returns it as an entry either way.
    func store(_ view: CityWeatherDTO, encoder: JSONEncoder, for cityId: Int, now: Date) throws -> CityWeatherEntry {
        let entry = try CityWeatherEntry(view: view, encoder: encoder)
        let secondsLeftInMinute = 60 - now.timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
        store(entry, for: cityId, notAfter: .now + .seconds(min(max(secondsLeftInMinute, 0), 60)))
        return entry
    }
}
