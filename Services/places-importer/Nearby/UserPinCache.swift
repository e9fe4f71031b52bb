import Foundation
import Synchronization

/// Keeps each user's pins for a short while (`PLACES_PIN_CACHE_MS`), so a nearby list costs no database
/// round trip. A change made through this instance drops the user's entry at once; one made through another
/// instance shows after at most one TTL. A load that raced with a change is not kept.
final class UserPinCache: Sendable {
    private struct State {
        var entries: [String: (pins: UserPins, expires: ContinuousClock.Instant)] = [:]
        /// Bumped by every invalidation: a load that started before one is returned but not kept.
        var generation = 0
    }

    private let ttl: Duration
    private let maxUsers: Int
    private let state = Mutex(State())

    init(ttl: Duration, maxUsers: Int = 100_000) {
        self.ttl = ttl
        self.maxUsers = maxUsers
    }

    func pins(for user: String, load: () async throws -> UserPins) async throws -> UserPins {
        let now = ContinuousClock.now
        let (cached, generation) = state.withLock { state in
            (state.entries[user].flatMap { $0.expires > now ? $0.pins : nil }, state.generation)
        }
        if let cached { return cached }
        let pins = try await load()
        guard ttl > .zero else { return pins }
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= maxUsers {
                state.entries = state.entries.filter { $0.value.expires > now }
                if state.entries.count >= maxUsers { state.entries.removeAll(keepingCapacity: true) }
            }
            state.entries[user] = (pins, now + ttl)
        }
        return pins
    }

    /// The user changed a pin, rating, save or place: their next list reads the database again.
    func invalidate(_ user: String) {
        state.withLock { state in
            state.entries[user] = nil
            state.generation += 1
        }
    }
}
