import Foundation

/// Partitions whose polled messages the reader is still applying. A revoke waits here until the revoked
/// partitions' batches are finished (applied and their offsets stored), so the synchronous commit that follows
/// hands the next owner exactly what this member finished: a reader that polls while it applies (the event
/// consumer fetches the next batch under the current one's transaction) never loses a partition mid-batch.
///
/// Counts, not a set: a partition can have a batch applying and the next ones waiting behind it. Those waiting need
/// not be waited for: each batch is held with its partition's assignment epoch, which a revoke raises, and a batch
/// whose epoch is stale when its turn comes is dropped unapplied and unstored (`isCurrent`). So a revoke waits only
/// for the batch already being applied.
public final class PartitionsInHand: @unchecked Sendable {
    /// What `hold` returns: the batch's partition and the assignment epoch it was polled in.
    public struct Hold: Sendable {
        fileprivate let id: RebalanceContext.PartitionID
        fileprivate let epoch: Int
    }

    // NSCondition, not a Mutex: the rebalance callback blocks librdkafka's poll thread (the consumer's own
    // dispatch queue, never a cooperative-pool thread) until the appliers, running as Swift tasks, release.
    private let condition = NSCondition()
    private var counts: [RebalanceContext.PartitionID: Int] = [:]
    /// Raised for a partition each time it is revoked.
    private var epochs: [RebalanceContext.PartitionID: Int] = [:]

    public init() {}

    /// The reader took a batch of `topic[partition]` to apply; call `release` once when it is done with it.
    @discardableResult
    public func hold(topic: String, partition: Int32) -> Hold {
        condition.lock()
        defer { condition.unlock() }
        let id = RebalanceContext.PartitionID(topic: topic, partition: partition)
        counts[id, default: 0] += 1
        return Hold(id: id, epoch: epochs[id, default: 0])
    }

    /// Whether the batch's partition has not been revoked since it was polled: check it right before applying.
    /// A stale batch is released without being applied or stored; the partition's owner reads it again from the
    /// committed offset (this member too, when the partition came back to it).
    public func isCurrent(_ hold: Hold) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return epochs[hold.id, default: 0] == hold.epoch
    }

    /// A batch taken with `hold` is finished: applied and stored, given up (then it is not stored, and the
    /// partition's next owner reads it again), or dropped as stale.
    public func release(_ hold: Hold) {
        condition.lock()
        defer { condition.unlock() }
        guard let count = counts[hold.id] else { return }
        counts[hold.id] = count > 1 ? count - 1 : nil
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

    /// Makes every batch held of `partitions` stale, then blocks the calling thread until none is held (the one
    /// being applied finishes; those waiting behind it are dropped when their turn comes). Only for the rebalance
    /// callback.
    func revoke(_ partitions: Set<RebalanceContext.PartitionID>) {
        condition.lock()
        defer { condition.unlock() }
        for id in partitions { epochs[id, default: 0] += 1 }
        while partitions.contains(where: { counts[$0] != nil }) {
            condition.wait()
        }
    }
}
