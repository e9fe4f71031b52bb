/// Stops calling a provider that keeps failing (W6: provider outages). After `failureThreshold` failed
/// fetches in a row the circuit opens for `coolDown`: fetches fail at once and readers get the last known
/// data marked stale. After the cool-down one trial fetch goes through; success closes the circuit.
public actor CircuitBreaker {
    private let failureThreshold: Int
    private let coolDown: Duration
    private var consecutiveFailures = 0
    private var openUntil: ContinuousClock.Instant?
    private var trialInFlight = false
    /// The time the cool-down is judged at; a unit test gives its own, so it does not wait for the cool-down.
    private let now: @Sendable () -> ContinuousClock.Instant

    public init(failureThreshold: Int, coolDown: Duration, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.failureThreshold = failureThreshold
        self.coolDown = coolDown
        self.now = now
    }

    /// Throws `ProviderError.circuitOpen` while the circuit is open or its one trial is under way.
    public func permit() throws(ProviderError) {
        guard let until = openUntil else { return }
        if now() < until || trialInFlight { throw .circuitOpen(until: until) }
        trialInFlight = true
    }

    public func recordSuccess() {
        consecutiveFailures = 0
        openUntil = nil
        trialInFlight = false
    }

    public func recordFailure() {
        consecutiveFailures += 1
        trialInFlight = false
        if consecutiveFailures >= failureThreshold {
            openUntil = now() + coolDown
        }
    }

    /// A fetch that ended neither in success nor in a provider's failure (cancelled: a caller's deadline): if it was
    /// the trial, the next caller may try, or the circuit would stay open for good with no trial under way.
    public func recordAbandoned() {
        trialInFlight = false
    }

    public var isOpen: Bool { openUntil.map { now() < $0 } ?? false }
}
