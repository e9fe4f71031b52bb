import HTTPTypes
import PlatformCore
import PlatformHTTP

/// The dashboard's answers kept for a moment (`STATS_CACHE_MS`, 500 ms by default; 0 turns it off): the numbers
/// change only as batches are aggregated, and a page asked by several admins, or reloaded, is then read from
/// Postgres once per moment. An answer up to four moments old is still given while one request reads it again
/// (every other request meanwhile gets the previous answer, not a queue behind the queries): measured (docs/benchmarks.md,
/// analytics rows), 32 requests reading the home page's queries at once queued to a p99 of 170 ms. Older than
/// that, the request waits for the new answer, so nobody is shown numbers from long ago.
///
/// A read is bounded by `readLimit` (it runs in a task of its own that requests meanwhile share, which their
/// cancellation does not reach), so an answer that never comes (a pool stopped under it during shutdown) cannot
/// keep requests, and the server's shutdown, waiting: past the limit they get 503 `busy` with `Retry-After`. The
/// read itself is left to finish or fail on its own; the next request starts another.
actor AnswerCache<Value: Sendable> {
    private let lifetime: Duration
    /// Kept for four moments (see above); beyond 1,000 keys (page sizes, prefixes) it drops the expired ones, then
    /// starts again rather than grow.
    private let entries: TTLCache<String, Value>
    private var reading: [String: Task<Value, any Error>] = [:]

    /// The time; the tests move their own.
    private let now: @Sendable () -> ContinuousClock.Instant

    /// How long one read may take before its waiters get 503 `busy` instead of an answer.
    private let readLimit: Duration

    init(lifetime: Duration, readLimit: Duration = .seconds(10), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.lifetime = lifetime
        entries = TTLCache(ttl: lifetime * 4, capacity: 1_000)
        self.readLimit = readLimit
        self.now = now
    }

    /// Waits for the reads under way (tests).
    func settle() async {
        for task in reading.values { _ = try? await task.value }
    }

    func value(for key: String, _ compute: @escaping @Sendable () async throws -> Value) async throws -> Value {
        guard lifetime > .zero else { return try await bounded(compute) }
        let instant = now()
        // A little past its moment: read again in the background; this request and those meanwhile get the
        // previous answer. Long past it (nobody asked for a while, the cache dropped it): wait for the new one.
        if let entry = entries.entry(for: key, now: instant) {
            if instant - entry.stored < lifetime { return entry.value }
            if reading[key] == nil { reading[key] = Task { try await self.refresh(key, compute) } }
            return entry.value
        }
        if let task = reading[key] { return try await task.value }
        let task = Task { try await self.refresh(key, compute) }
        reading[key] = task
        return try await task.value
    }

    private func bounded(_ compute: @escaping @Sendable () async throws -> Value) async throws -> Value {
        do {
            return try await withTimeLimit(readLimit, compute)
        } catch is StepTimeout {
            throw APIError(
                .serviceUnavailable, code: "busy", message: "the numbers could not be read in time; try again", headers: [.retryAfter: "1"])
        }
    }

    private func refresh(_ key: String, _ compute: @escaping @Sendable () async throws -> Value) async throws -> Value {
        defer { reading[key] = nil }
        let value = try await bounded(compute)
        entries.store(value, for: key, now: now())
        return value
    }
}
