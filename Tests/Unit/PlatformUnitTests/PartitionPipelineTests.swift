import Synchronization
import Testing
import UnitTestSupport

@testable import PlatformPostgres

/// The event consumer's pipeline: it polls ahead while batches apply, so its ordering rules are what
/// keeps a partition's events from overtaking each other or being stored past one that was not applied.
@Suite("platform: the consumer's partition pipeline")
struct PartitionPipelineTests {
    /// What the batches did, in the order they did it.
    final class Journal: Sendable {
        struct Entry: Equatable {
            var key: Int
            var sequence: Int
        }
        let applied = Mutex<[Entry]>([])
        let prepared = Mutex<[Entry]>([])
        let finished = Mutex<[Entry]>([])
    }

    /// Yields until `condition` holds or a bound is passed, so a broken overlap fails the test instead of hanging it.
    static func yield(until condition: () -> Bool) async -> Bool {
        for _ in 0..<20_000 where !condition() {
            await Task.yield()
        }
        return condition()
    }

    @Test("X2: over random schedules, each partition's batches apply once, in poll order, and stop at one that gave up")
    func randomSchedulesKeepPartitionOrder() async {
        for seed in UInt64(1)...40 {
            var random = SeededRandom(seed: seed)
            let journal = Journal()
            var pipeline = PartitionPipeline<Int>()
            var nextSequence: [Int: Int] = [:]
            var started: [Journal.Entry] = []
            // One batch in ten gives up (the service stopping mid-batch in that partition).
            var givesUp: Set<Int> = []
            var sawGivingUp = false
            for index in 0..<60 {
                let key = Int.random(in: 0..<4, using: &random)
                let entry = Journal.Entry(key: key, sequence: nextSequence[key, default: 0])
                nextSequence[key, default: 0] += 1
                started.append(entry)
                let gaveUp = Int.random(in: 0..<10, using: &random) == 0
                if gaveUp { givesUp.insert(index) }
                let yields = Int.random(in: 0..<8, using: &random)
                pipeline.start(
                    key, size: Int.random(in: 1...5, using: &random),
                    prepare: { journal.prepared.withLock { $0.append(entry) } },
                    apply: {
                        for _ in 0..<yields { await Task.yield() }
                        journal.applied.withLock { $0.append(entry) }
                        return !gaveUp
                    },
                    finally: { journal.finished.withLock { $0.append(entry) } })
                if Int.random(in: 0..<3, using: &random) == 0 {
                    let limit = Int.random(in: 0...12, using: &random)
                    sawGivingUp = await !pipeline.waitUntil(outstandingAtMost: limit) || sawGivingUp
                    #expect(pipeline.outstandingMessages <= limit, "seed \(seed)")
                }
            }
            sawGivingUp = await !pipeline.drain() || sawGivingUp
            #expect(sawGivingUp == !givesUp.isEmpty, "the waits report a batch that gave up; seed \(seed)")
            #expect(pipeline.outstandingMessages == 0)

            let applied = journal.applied.withLock { $0 }
            // Applied batches of a partition: 0, 1, 2, ... up to and including the first that gave up, never after.
            for key in 0..<4 {
                let sequences = applied.filter { $0.key == key }.map(\.sequence)
                let firstGivingUp = started.indices.filter { givesUp.contains($0) && started[$0].key == key }
                    .map { started[$0].sequence }.min()
                let expected = Array(0..<(firstGivingUp.map { $0 + 1 } ?? nextSequence[key, default: 0]))
                #expect(sequences == expected, "seed \(seed), partition \(key)")
            }
            // Every started batch was prepared and finished once, whether it applied or not.
            #expect(journal.prepared.withLock { $0.count } == started.count, "seed \(seed)")
            #expect(journal.finished.withLock { $0.count } == started.count, "seed \(seed)")
        }
    }

    @Test("X2: batches of different partitions apply side by side")
    func partitionsApplyConcurrently() async {
        let journal = Journal()
        let secondStarted = Atomic<Bool>(false)
        var pipeline = PartitionPipeline<Int>()
        // The first partition's batch finishes only once the second partition's batch has started applying.
        pipeline.start(
            0, size: 1, prepare: {},
            apply: {
                await Self.yield { secondStarted.load(ordering: .acquiring) }
            }, finally: {})
        pipeline.start(
            1, size: 1, prepare: {},
            apply: {
                secondStarted.store(true, ordering: .releasing)
                journal.applied.withLock { $0.append(.init(key: 1, sequence: 0)) }
                return true
            }, finally: {})
        #expect(await pipeline.drain(), "the first batch saw the second start while it was applying")
    }

    @Test("X2: a partition's next batch is prepared while its current one applies, and applies only after it")
    func nextBatchPreparedDuringCurrent() async {
        let journal = Journal()
        var pipeline = PartitionPipeline<Int>()
        pipeline.start(
            0, size: 1, prepare: {},
            apply: {
                // The next batch's decoding runs now, under this batch's "transaction".
                let overlapped = await Self.yield { journal.prepared.withLock { !$0.isEmpty } }
                journal.applied.withLock { $0.append(.init(key: 0, sequence: 0)) }
                return overlapped
            }, finally: {})
        pipeline.start(
            0, size: 1, prepare: { journal.prepared.withLock { $0.append(.init(key: 0, sequence: 1)) } },
            apply: {
                journal.applied.withLock { $0.append(.init(key: 0, sequence: 1)) }
                return true
            }, finally: {})
        #expect(await pipeline.drain())
        #expect(journal.applied.withLock { $0.map(\.sequence) } == [0, 1])
    }
}
