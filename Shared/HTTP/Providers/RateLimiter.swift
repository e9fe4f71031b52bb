/// Spaces requests to a provider at most `requestsPerSecond` apart (W6: provider rate limits). Callers
/// reserve the next free slot and sleep until it, so concurrent refreshes queue fairly.
public actor RateLimiter {
    private let interval: Duration
    private var nextSlot: ContinuousClock.Instant

    public init(requestsPerSecond: Double) {
        interval = .seconds(1 / max(requestsPerSecond, 0.001))
        nextSlot = .now
    }

    public func acquire() async throws {
        let now = ContinuousClock.now
        let slot = max(now, nextSlot)
        nextSlot = slot + interval
        if slot > now {
            try await Task.sleep(until: slot, clock: .continuous)
        }
    }
}
