import Foundation
import Synchronization

/// Pages of searches for one or two letters (W1), kept for a few minutes. Those patterns match thousands of
/// own and alternate names (a one-letter page took 10-16 ms of database time against 0.1 ms before the
/// alternate names), yet there are only a few hundred of them and the catalogue changes only when a new
/// file is imported. Longer patterns match few names and are not kept.
final class ShortSearchCache: Sendable {
    struct Key: Hashable, Sendable {
        var likePattern: String
        var limit: Int
        var offset: Int
    }

    /// Patterns with at most this many characters besides the closing `%` are kept.
    static let maxPatternLength = 2
    private let ttl: Duration
    private let capacity: Int
    private let entries = Mutex<[Key: (matches: [CityStore.Match], expires: ContinuousClock.Instant)]>([:])

    init(ttl: Duration = .seconds(600), capacity: Int = 5_000) {
        self.ttl = ttl
        self.capacity = capacity
    }

    static func isShort(_ pattern: CitySearchPattern) -> Bool {
        pattern.likePattern.count <= maxPatternLength + 1
    }

    func matches(for key: Key, now: ContinuousClock.Instant = .now) -> [CityStore.Match]? {
        entries.withLock { entries in
            guard let entry = entries[key], entry.expires > now else { return nil }
            return entry.matches
        }
    }

    func store(_ matches: [CityStore.Match], for key: Key, now: ContinuousClock.Instant = .now) {
        entries.withLock { entries in
            // Past the capacity (deep pages of many patterns) it starts afresh, which bounds memory.
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = (matches, now + ttl)
        }
    }
}
