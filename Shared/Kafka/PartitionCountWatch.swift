import Logging
import Synchronization

/// A topic with fewer partitions than the catalogue gives it (re-created by a broker with its default, say):
/// keys then map to other partitions than the producers' and fewer instances can share the work.
public struct PartitionShortfall: Sendable, Equatable {
    public var topic: String
    public var found: Int
    public var expected: Int
}

/// Looks, every 30 s, at each subscribed topic: one the broker does not know is kept as missing (with since
/// when), one with fewer partitions than the catalogue gives it as a shortfall; both for readiness, each logged
/// once when first found. A consumer learns of a missing topic from its fetches only while it holds none of
/// its topics' partitions; this look finds one missing beside topics it does hold.
final class PartitionCountWatch: Sendable {
    private let topics: [String]
    private let expected: [String: Int]
    private let logger: Logger
    private let short = Mutex<[PartitionShortfall]>([])
    private let missing = Mutex<[String: ContinuousClock.Instant]>([:])
    private let lastLook = Mutex<ContinuousClock.Instant?>(nil)

    init(topics: [String], expected: [String: Int], logger: Logger) {
        self.topics = topics.sorted()
        self.expected = expected
        self.logger = logger
    }

    /// The topics found short at the last look.
    var shortfall: [PartitionShortfall] { short.withLock { $0 } }

    /// Since when the earliest of the topics still missing at the last look has been missing; nil when none is.
    var missingSince: ContinuousClock.Instant? { missing.withLock { $0.values.min() } }

    /// Called on the consumer's executor before each poll; looks when 30 s have passed (one metadata request per
    /// topic, at most a second each). A broker that does not answer says nothing about the topics: kept as before.
    func lookIfDue(using handle: RdKafkaHandle) {
        guard !topics.isEmpty else { return }
        let now = ContinuousClock.now
        let due = lastLook.withLock { last -> Bool in
            guard last.map({ now - $0 >= .seconds(30) }) ?? true else { return false }
            last = now
            return true
        }
        guard due else { return }
        var found: [PartitionShortfall] = []
        var absent: [String] = [], present: [String] = []
        for topic in topics {
            do {
                let count = try handle.partitionCount(of: topic, timeoutMilliseconds: 1_000)
                present.append(topic)
                if let expected = expected[topic], count < expected {
                    found.append(PartitionShortfall(topic: topic, found: count, expected: expected))
                }
            } catch let error as KafkaError where error.namesUnknownTopic {
                absent.append(topic)
            } catch {
                continue
            }
        }
        let newlyMissing = missing.withLock { since -> [String] in
            for topic in present { since[topic] = nil }
            let new = absent.filter { since[$0] == nil }
            for topic in new { since[topic] = now }
            return new
        }
        for topic in newlyMissing {
            logger.error(
                "a subscribed topic is missing on the broker (clients never create topics): create it with platformctl create-topics",
                metadata: ["topic": "\(topic)"])
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
