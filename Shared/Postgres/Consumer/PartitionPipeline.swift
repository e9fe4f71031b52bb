/// The batches the event consumer's loop has polled and not yet seen finished. Each partition's batches apply
/// one after the other in poll order; batches of different partitions apply side by side; every batch is
/// prepared (its envelopes read) as soon as it is started, while its partition's previous batch applies. So the
/// loop can poll the next batch while the current ones apply, with nothing of one partition overtaking itself.
///
/// A batch that gives up (the service stops) ends its partition's chain: the batches started behind it return
/// false without applying, because applying them would store offsets past messages that were not applied.
struct PartitionPipeline<Key: Hashable & Sendable> {
    private struct Started {
        var task: Task<Bool, Never>
        var size: Int
    }

    /// The last batch started per partition: the next one of that partition waits for it.
    private var tails: [Key: Task<Bool, Never>] = [:]
    /// Every batch not yet awaited, oldest first.
    private var started: [Started] = []
    private var startedIndex = 0
    /// Messages in the batches not yet awaited.
    private(set) var outstandingMessages = 0

    /// Starts a batch of `size` messages of partition `key`: `prepare` at once, `apply` once the partition's
    /// previous batch finished (and not at all when it gave up), then `finally` in every case.
    mutating func start<Prepared: Sendable>(
        _ key: Key, size: Int, prepare: @escaping @Sendable () -> Prepared, apply: @escaping @Sendable (Prepared) async -> Bool,
        finally: @escaping @Sendable () -> Void
    ) {
        let previous = tails[key]
        let task = Task {
            defer { finally() }
            let prepared = prepare()
            guard await previous?.value ?? true else { return false }
            return await apply(prepared)
        }
        tails[key] = task
        started.append(Started(task: task, size: size))
        outstandingMessages += size
    }

    /// Waits for the oldest batches until at most `limit` messages are outstanding. False when one of the batches
    /// awaited gave up (the loop stops polling then).
    mutating func waitUntil(outstandingAtMost limit: Int) async -> Bool {
        await awaitOldest { $0 > limit }
    }

    /// Waits for every batch started. False when one of them gave up.
    mutating func drain() async -> Bool {
        await awaitOldest { _ in true }
    }

    private mutating func awaitOldest(while wanted: (_ outstandingMessages: Int) -> Bool) async -> Bool {
        var finished = true
        while startedIndex < started.count, wanted(outstandingMessages) {
            let oldest = started[startedIndex]
            startedIndex += 1
            outstandingMessages -= oldest.size
            finished = await oldest.task.value && finished
        }
        compact()
        return finished
    }

    /// Forgets awaited batches. The tails stay (one finished task per partition): a partition whose last batch gave
    /// up must stay given up.
    private mutating func compact() {
        if startedIndex == started.count {
            started.removeAll(keepingCapacity: true)
            startedIndex = 0
        } else if startedIndex > 64 {
            started.removeFirst(startedIndex)
            startedIndex = 0
        }
    }
}
