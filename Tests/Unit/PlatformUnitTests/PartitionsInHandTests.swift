import Foundation
import Synchronization
import Testing

@testable import PlatformKafka

/// What a rebalance relies on while the event consumer polls ahead: a revoke waits for the batch being
/// applied, and batches queued behind it learn they are stale instead of being waited for.
@Suite("platform: partitions in hand across a revoke")
struct PartitionsInHandTests {
    static let zero = RebalanceContext.PartitionID(topic: "t", partition: 0)

    /// Set once a revoke returned.
    final class Done: Sendable {
        private let flag = Atomic<Bool>(false)
        var isSet: Bool { flag.load(ordering: .acquiring) }
        func set() { flag.store(true, ordering: .releasing) }

        /// Waits up to two seconds for the flag.
        func wait() -> Bool {
            for _ in 0..<2_000 where !isSet { usleep(1_000) }
            return isSet
        }
    }

    /// Runs `revoke` on a thread of its own, as librdkafka's poll thread does.
    static func revokeOnThread(_ inHand: PartitionsInHand, _ ids: Set<RebalanceContext.PartitionID>) -> Done {
        let done = Done()
        Thread.detachNewThread {
            inHand.revoke(ids)
            done.set()
        }
        return done
    }

    @Test("X2: a revoke waits until the held batches are released, and marks them stale meanwhile")
    func revokeWaitsAndMarksStale() {
        let inHand = PartitionsInHand()
        let applying = inHand.hold(topic: "t", partition: 0)
        let queued = inHand.hold(topic: "t", partition: 0)
        let other = inHand.hold(topic: "t", partition: 1)
        #expect(inHand.isCurrent(applying) && inHand.isCurrent(queued))

        let done = Self.revokeOnThread(inHand, [Self.zero])
        // The revoke has raised the epoch before it waits: the queued batch sees it is stale.
        for _ in 0..<2_000 where inHand.isCurrent(queued) { usleep(1_000) }
        #expect(!inHand.isCurrent(queued))
        #expect(inHand.isCurrent(other), "another partition's batch is not touched")
        usleep(20_000)
        #expect(!done.isSet, "the revoke still waits for partition 0's batches")

        inHand.release(queued)
        usleep(20_000)
        #expect(!done.isSet, "one batch of partition 0 is still held")
        inHand.release(applying)
        #expect(done.wait(), "the revoke returns once partition 0 holds nothing")
        #expect(inHand.holds(topic: "t", partition: 1) && !inHand.holds(topic: "t", partition: 0))

        // A batch polled after the revoke (the partition came back) belongs to the new assignment.
        let afterwards = inHand.hold(topic: "t", partition: 0)
        #expect(inHand.isCurrent(afterwards))
        inHand.release(afterwards)
        inHand.release(other)
        #expect(inHand.count == 0)
    }

    @Test("X2: a revoke of a partition with nothing held returns at once")
    func revokeWithNothingHeld() {
        let inHand = PartitionsInHand()
        let other = inHand.hold(topic: "t", partition: 1)
        let done = Self.revokeOnThread(inHand, [Self.zero])
        #expect(done.wait())
        inHand.release(other)
    }
}
