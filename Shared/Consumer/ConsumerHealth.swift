import Synchronization

/// Which partitions a consumer has paused on transient failures, since when and why. Readiness reads it, so an
/// orchestrator sees an instance that cannot apply events (its database is gone, say) as not ready.
public final class ConsumerHealth: Sendable {
    public struct Pause: Sendable, Equatable {
        public var partition: String
        public var since: ContinuousClock.Instant
        public var reason: String
    }

    private let paused = Mutex<[String: Pause]>([:])

    public init() {}

    /// Marks `partition` paused; keeps the first time it paused while the failure lasts.
    func pause(_ partition: String, reason: String) {
        paused.withLock { paused in
            let since = paused[partition]?.since ?? .now
            paused[partition] = Pause(partition: partition, since: since, reason: reason)
        }
    }

    func resume(_ partition: String) {
        _ = paused.withLock { $0.removeValue(forKey: partition) }
    }

    /// The partition paused longest, if any is paused.
    public var longestPause: Pause? {
        paused.withLock { $0.values.min { $0.since < $1.since } }
    }
}
