import Logging
import Synchronization

/// A topic with fewer partitions than the catalogue gives it (re-created by a broker with its default, say):
/// keys then map to other partitions than the producers' and fewer instances can share the work.
public struct PartitionShortfall: Sendable, Equatable {
    public var topic: String
    public var found: Int
    public var expected: Int
}

/// Looks, every 30 s, at the partition count of each subscribed topic whose count is known (the catalogue's),
/// and keeps the ones found short for readiness; logs each one once when it is first found short.
final class PartitionCountWatch: Sendable {
    private let expected: [String: Int]
    private let logger: Logger
    private let short = Mutex<[PartitionShortfall]>([])
    private let lastLook = Mutex<ContinuousClock.Instant?>(nil)

    init(expected: [String: Int], logger: Logger) {
        self.expected = expected
        self.logger = logger
    }

    /// The topics found short at the last look.
    var shortfall: [PartitionShortfall] { short.withLock { $0 } }

    /// Called on the consumer's executor before each poll; looks when 30 s have passed (one metadata request per
    /// topic, at most a second each). A missing topic is not a shortfall: the consumer reports it as missing.
    func lookIfDue(using handle: RdKafkaHandle) {
        guard !expected.isEmpty else { return }
        let now = ContinuousClock.now
        let due = lastLook.withLock { last -> Bool in
            guard last.map({ now - $0 >= .seconds(30) }) ?? true else { return false }
            last = now
            return true
        }
        guard due else { return }
        let found = expected.sorted { $0.key < $1.key }.compactMap { topic, expected -> PartitionShortfall? in
            guard let count = try? handle.partitionCount(of: topic, timeoutMilliseconds: 1_000), count < expected else { return nil }
            return PartitionShortfall(topic: topic, found: count, expected: expected)
        }
        let before = short.withLock { shortfall in
            defer { shortfall = found }
            return shortfall
        }
        for shortfall in found where !before.contains(shortfall) {
            logger.error(
                "a subscribed topic has fewer partitions than the catalogue gives it: re-create it (platformctl create-topics on an empty broker) or add partitions",
                metadata: ["topic": "\(shortfall.topic)", "partitions": "\(shortfall.found)", "expected": "\(shortfall.expected)"])
        }
    }
}
