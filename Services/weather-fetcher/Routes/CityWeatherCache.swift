import Foundation
import Hummingbird
import Shared
import Synchronization

/// Keeps each city's weather answer for a few seconds (`WEATHER_VIEW_CACHE_MS`), so a popular city costs
/// three database round trips and one report decoding per few seconds rather than per request. Signed-in
/// requests reuse it too and add only their own part (recents, favourite flag). An entry never outlives
/// the wall-clock minute it was made in, so the hour list never shows a past hour; "updated N minutes ago"
/// and a new refresh or warning reach readers at most one TTL late.
final class CityWeatherCache: Sendable {
    struct Entry: Sendable {
        /// The answer without the caller's own part (`isFavourite` nil).
        var view: CityWeatherDTO
        /// `view` encoded, as anonymous callers get it.
        var anonymousBody: ByteBuffer
        var expires: Date
    }

    private let ttl: TimeInterval
    private let entries = Mutex<[Int: Entry]>([:])

    init(ttl: Duration) {
        self.ttl = ttl.seconds
    }

    func entry(for cityId: Int, now: Date) -> Entry? {
        guard ttl > 0 else { return nil }
        return entries.withLock { entries in
            guard let entry = entries[cityId] else { return nil }
            guard entry.expires > now else {
                entries[cityId] = nil
                return nil
            }
            return entry
        }
    }

    /// Remembers a freshly built answer (when caching is on) and returns it as an entry either way.
    func store(_ view: CityWeatherDTO, body: ByteBuffer, for cityId: Int, now: Date) -> Entry {
        let nextMinute = (now.timeIntervalSince1970 / 60).rounded(.down) * 60 + 60
        let entry = Entry(
            view: view, anonymousBody: body, expires: Date(timeIntervalSince1970: min(now.timeIntervalSince1970 + ttl, nextMinute)))
        // Bounded by the catalogue's size; expired entries are dropped when next read.
        if ttl > 0 { entries.withLock { $0[cityId] = entry } }
        return entry
    }
}
