/// Lets partitions apply their batches concurrently (shared), but a suspect message of the crash guard only
/// with nothing else in flight in the process (exclusive): if it takes the process down, the crash is counted
/// against it alone, never against a neighbour that happened to be running.
actor ApplyGate {
    private var shared = 0
    private var exclusive = false
    private var waiting: [(exclusive: Bool, continuation: CheckedContinuation<Void, Never>)] = []

    func withShared<Result: Sendable>(_ body: @Sendable () async -> Result) async -> Result {
        await acquire(exclusive: false)
        let result = await body()
        release(exclusive: false)
        return result
    }

    func withExclusive<Result: Sendable>(_ body: @Sendable () async -> Result) async -> Result {
        await acquire(exclusive: true)
        let result = await body()
        release(exclusive: true)
        return result
    }

    private func acquire(exclusive wantsExclusive: Bool) async {
        if waiting.isEmpty && canEnter(exclusive: wantsExclusive) {
            enter(exclusive: wantsExclusive)
            return
        }
        await withCheckedContinuation { waiting.append((wantsExclusive, $0)) }
    }

    private func canEnter(exclusive wantsExclusive: Bool) -> Bool {
        wantsExclusive ? (!exclusive && shared == 0) : !exclusive
    }

    private func enter(exclusive wantsExclusive: Bool) {
        if wantsExclusive { exclusive = true } else { shared += 1 }
    }

    private func release(exclusive wasExclusive: Bool) {
        if wasExclusive { exclusive = false } else { shared -= 1 }
        // First come, first served: whoever waits longest goes next, and shared waiters behind it with it.
        while let next = waiting.first, canEnter(exclusive: next.exclusive) {
            waiting.removeFirst()
            enter(exclusive: next.exclusive)
            next.continuation.resume()
        }
    }
}
