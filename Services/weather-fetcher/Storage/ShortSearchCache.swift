import PlatformCore
import PlatformHTTP

/// Pages of searches for one or two letters (W1), kept for a few minutes. Those patterns match thousands of
/// own and alternate names (a one-letter page took 10-16 ms of database time against 0.1 ms before the
/// alternate names), yet there are only a few hundred of them and the catalogue changes only when a new
/// file is imported. Longer patterns match few names and are not kept.
typealias ShortSearchCache = TTLCache<ShortSearchKey, [CityStore.Match]>

struct ShortSearchKey: Hashable, Sendable {
    var likePattern: String
    var limit: Int
    var offset: Int
}

extension TTLCache where Key == ShortSearchKey, Value == [CityStore.Match] {
    /// Patterns with at most this many characters besides the closing `%` are kept.
    static var maxPatternLength: Int { 2 }

    /// Ten minutes; past 5,000 pages (deep pages of many patterns) it drops the expired ones, then starts afresh.
    static func standard() -> ShortSearchCache { ShortSearchCache(ttl: .seconds(600), capacity: 5_000) }

    static func isShort(_ pattern: CitySearchPattern) -> Bool {
        pattern.likePattern.count <= maxPatternLength + 1
    }
}
