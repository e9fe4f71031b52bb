import PlatformKafka
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
    /// Steps (a batch's transaction, a dead-letter publish) in progress, by partition: one that hangs (a query
    /// sent as the database went away) holds the partition as surely as a failure does.
    private let running = Mutex<[String: ContinuousClock.Instant]>([:])

    /// Since when a subscribed topic has been missing (read from the consumer at each check).
    let missingTopicSince: @Sendable () -> ContinuousClock.Instant?
    /// Since when the consumer has held no partition although its topics have some (read at each check).
    let unassignedSince: @Sendable () -> ContinuousClock.Instant?
    /// Subscribed topics with fewer partitions than the catalogue gives them (read at each check).
    package let partitionShortfall: @Sendable () -> [PartitionShortfall]
    /// The topics of the consumer, for the readiness answer.
    public let topics: [String]

    public init(
        topics: [String] = [], missingTopicSince: @escaping @Sendable () -> ContinuousClock.Instant? = { nil },
        unassignedSince: @escaping @Sendable () -> ContinuousClock.Instant? = { nil },
        partitionShortfall: @escaping @Sendable () -> [PartitionShortfall] = { [] }
    ) {
        self.topics = topics
        self.missingTopicSince = missingTopicSince
        self.unassignedSince = unassignedSince
        self.partitionShortfall = partitionShortfall
    }

    /// How long the consumer has held no partition although its topics have some, if it holds none.
    public var unassignedFor: Duration? { unassignedSince().map { ContinuousClock.now - $0 } }

    /// How long a subscribed topic has been missing, if it is.
    public var topicMissingFor: Duration? { missingTopicSince().map { ContinuousClock.now - $0 } }

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

    func stepStarted(_ partition: String) {
        running.withLock { $0[partition] = .now }
    }

    func stepEnded(_ partition: String) {
        _ = running.withLock { $0.removeValue(forKey: partition) }
    }

    /// The partition paused longest, if any is paused or has a step in progress (which counts from its start).
    public var longestPause: Pause? {
        let pause = paused.withLock { $0.values.min { $0.since < $1.since } }
        let step = running.withLock { $0.min { $0.value < $1.value } }
            .map { Pause(partition: $0.key, since: $0.value, reason: "a step has not finished yet") }
        return [pause, step].compactMap { $0 }.min { $0.since < $1.since }
    }
}
