import Synchronization

/// When the outbox relay last made progress (published a batch, found nothing to publish, or saw another
/// instance holding the relay lock) and its last failure. Readiness reads it: a relay that has failed for
/// longer than its limit while rows wait is stalled, and the instance says so.
public final class RelayHealth: Sendable {
    private struct State {
        var lastProgress: ContinuousClock.Instant = .now
        var lastError: String?
    }

    private let state = Mutex(State())

    public init() {}

    func progressed() {
        state.withLock {
            $0.lastProgress = .now
            $0.lastError = nil
        }
    }

    func failed(_ error: any Error) {
        let text = String(describing: error).prefix(200).description
        state.withLock { $0.lastError = text }
    }

    /// Nil while the relay progressed within `limit`; otherwise how long it has not, and its last error.
    public func stall(limit: Duration) -> (duration: Duration, lastError: String?)? {
        state.withLock { state in
            let duration = ContinuousClock.now - state.lastProgress
            return duration > limit ? (duration, state.lastError) : nil
        }
    }
}
