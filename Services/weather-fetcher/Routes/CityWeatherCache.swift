import Foundation
import Hummingbird
import Shared
import Synchronization

/// Keeps each city's anonymous weather answer for a few seconds (`WEATHER_VIEW_CACHE_MS`), so a popular
/// city costs three database round trips per few seconds rather than per request. An entry never outlives
/// the wall-clock minute it was made in, so the hour list never shows a past hour; "updated N minutes ago"
/// and a new refresh or warning reach readers at most one TTL late. Requests with a token bypass it (they
/// record the view in the user's recents).
final class CityWeatherCache: Sendable {
    private struct Entry {
        var body: ByteBuffer
        var expires: Date
    }

    private let ttl: TimeInterval
    private let entries = Mutex<[Int: Entry]>([:])

    init(ttl: Duration) {
        self.ttl = ttl.seconds
    }

    var isEnabled: Bool { ttl > 0 }

    func body(for cityId: Int, now: Date) -> ByteBuffer? {
        guard isEnabled else { return nil }
        return entries.withLock { entries in
            guard let entry = entries[cityId] else { return nil }
            guard entry.expires > now else {
                entries[cityId] = nil
                return nil
            }
            return entry.body
        }
    }

    func store(_ body: ByteBuffer, for cityId: Int, now: Date) {
        guard isEnabled else { return }
        let nextMinute = (now.timeIntervalSince1970 / 60).rounded(.down) * 60 + 60
        let expires = Date(timeIntervalSince1970: min(now.timeIntervalSince1970 + ttl, nextMinute))
        entries.withLock { entries in
            // Bounded by the catalogue's size; expired entries are dropped when next read.
            entries[cityId] = Entry(body: body, expires: expires)
        }
    }
}
