import Foundation

/// Partitions whose polled messages the reader is still applying. A revoke waits here until the revoked
/// partitions' batches are finished (applied and their offsets stored), so the synchronous commit that follows
/// hands the next owner exactly what this member finished: a reader that polls while it applies (the event
/// consumer fetches the next batch under the current one's transaction) never loses a partition mid-batch.
///
/// Counts, not a set: a partition can have a batch applying and the next one waiting behind it.
public final class PartitionsInHand: @unchecked Sendable {
    // NSCondition, not a Mutex: the rebalance callback blocks librdkafka's poll thread (the consumer's own
    // dispatch queue, never a cooperative-pool thread) until the appliers, running as Swift tasks, release.
    private let condition = NSCondition()
    private var counts: [RebalanceContext.PartitionID: Int] = [:]

    public init() {}

    /// The reader took a batch of `topic[partition]` to apply; call `release` once when it is done with it.
    public func hold(topic: String, partition: Int32) {
        condition.lock()
        defer { condition.unlock() }
        counts[RebalanceContext.PartitionID(topic: topic, partition: partition), default: 0] += 1
    }

    /// A batch taken with `hold` is finished: applied and stored, or given up (then it is not stored, and the
    /// partition's next owner reads it again).
    public func release(topic: String, partition: Int32) {
        condition.lock()
        defer { condition.unlock() }
        let id = RebalanceContext.PartitionID(topic: topic, partition: partition)
        guard let count = counts[id] else { return }
        counts[id] = count > 1 ? count - 1 : nil
        condition.broadcast()
    }

    /// Whether a batch of `topic[partition]` is taken and not yet released.
    public func holds(topic: String, partition: Int32) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return counts[RebalanceContext.PartitionID(topic: topic, partition: partition)] != nil
    }

    /// Batches taken and not yet released, over all partitions.
    public var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return counts.values.reduce(0, +)
    }

    /// Blocks the calling thread until no batch of `partitions` is held. Only for the rebalance callback.
    func waitUntilReleased(_ partitions: Set<RebalanceContext.PartitionID>) {
        condition.lock()
        defer { condition.unlock() }
        while partitions.contains(where: { counts[$0] != nil }) {
            condition.wait()
        }
    }
}
