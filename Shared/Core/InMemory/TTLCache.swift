import Synchronization

/// The platform's one in-process cache: values kept by key for `ttl` (token verifications, hot routes' answers,
/// short searches, a user's pins). `nil` keeps an entry until it is dropped (an answer fixed by its key); zero
/// keeps nothing. Bounded: past `capacity` entries the expired ones go and, if it is still full, it starts
/// afresh, which bounds memory whatever callers ask for and never serves an entry past its expiry.
///
/// Times are `ContinuousClock` instants, passed in so that a test can move its own; an entry that must end
/// earlier than `ttl` (at a wall-clock minute, at a token's expiry) says so with `notAfter`.
///
/// The hot routes' lookups are `@inlinable` so that each service specializes them for its own keys and values:
/// across the module boundary they would otherwise run as unspecialized generic code on every request.
public final class TTLCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    public struct Entry: Sendable {
        public var value: Value
        public var stored: ContinuousClock.Instant
        /// Nil: valid until dropped.
        public var expires: ContinuousClock.Instant?

        @inlinable
        func isLive(at now: ContinuousClock.Instant) -> Bool { expires.map { $0 > now } ?? true }
    }

    @usableFromInline
    struct State {
        @usableFromInline var entries: [Key: Entry] = [:]
        /// Bumped by every invalidation: a load that started before one is returned but not kept.
        @usableFromInline var generation = 0

        @usableFromInline init() {}

        /// Past `capacity` entries the expired ones go and, if it is still full, it starts afresh.
        @inlinable
        mutating func insert(_ entry: Entry, for key: Key, capacity: Int) {
            if entries[key] == nil, entries.count >= capacity {
                entries = entries.filter { $0.value.isLive(at: entry.stored) }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[key] = entry
        }
    }

    public let ttl: Duration?
    public let capacity: Int
    @usableFromInline let state = Mutex(State())

    public init(ttl: Duration?, capacity: Int) {
        self.ttl = ttl
        self.capacity = max(1, capacity)
    }

    /// Whether anything is kept at all (a zero TTL turns the cache off).
    @inlinable
    public var isEnabled: Bool { ttl.map { $0 > .zero } ?? true }

    @inlinable
    public func entry(for key: Key, now: ContinuousClock.Instant = .now) -> Entry? {
        guard isEnabled else { return nil }
        return state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            guard entry.isLive(at: now) else {
                state.entries[key] = nil
                return nil
            }
            return entry
        }
    }

    @inlinable
    public func value(for key: Key, now: ContinuousClock.Instant = .now) -> Value? {
        entry(for: key, now: now)?.value
    }

    /// Keeps `value` for `ttl`, or until `notAfter` when that comes first.
    @inlinable
    public func store(_ value: Value, for key: Key, now: ContinuousClock.Instant = .now, notAfter: ContinuousClock.Instant? = nil) {
        guard isEnabled else { return }
        let entry = newEntry(value, now: now, notAfter: notAfter)
        state.withLock { $0.insert(entry, for: key, capacity: capacity) }
    }

    /// The kept value, or `load`'s, kept unless an invalidation came while it loaded (it may predate the change).
    @inlinable
    public func value(
        for key: Key, now: ContinuousClock.Instant = .now, load: () async throws -> Value
    ) async rethrows -> Value {
        let (cached, generation) = state.withLock { state in
            (state.entries[key].flatMap { $0.isLive(at: now) ? $0.value : nil }, state.generation)
        }
        if let cached, isEnabled { return cached }
        let value = try await load()
        guard isEnabled else { return value }
        let entry = newEntry(value, now: now, notAfter: nil)
        state.withLock { state in
            guard state.generation == generation else { return }
            state.insert(entry, for: key, capacity: capacity)
        }
        return value
    }

    @inlinable
    public func invalidate(_ key: Key) {
        state.withLock { state in
            state.entries[key] = nil
            state.generation += 1
        }
    }

    /// Drops every entry whose key matches.
    public func invalidate(where matches: (Key) -> Bool) {
        state.withLock { state in
            state.entries = state.entries.filter { !matches($0.key) }
            state.generation += 1
        }
    }

    /// Kept for `ttl`, or until `notAfter` when that comes first.
    @usableFromInline
    func newEntry(_ value: Value, now: ContinuousClock.Instant, notAfter: ContinuousClock.Instant?) -> Entry {
        Entry(value: value, stored: now, expires: [ttl.map { now + $0 }, notAfter].compactMap { $0 }.min())
    }
}
