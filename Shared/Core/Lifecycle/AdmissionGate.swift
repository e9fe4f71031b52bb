import Synchronization

/// Admits at most `running` callers at once and lets at most `waiting` more queue for a place; anyone beyond
/// that is refused at once instead of joining an unbounded queue (a burst of logins must not pile up work
/// the service finishes long after the clients gave up).
public final class AdmissionGate: Sendable {
    public struct Full: Error {}

    private struct State {
        var running = 0
        /// Callers that were given a place in the queue; some may not have parked their continuation yet.
        var queued = 0
        var parked: [CheckedContinuation<Void, Never>] = []
    }

    public let maxRunning: Int
    public let maxWaiting: Int
    private let state = Mutex(State())

    public init(running: Int, waiting: Int) {
        maxRunning = max(1, running)
        maxWaiting = max(0, waiting)
    }

    /// Waits for a place; throws `Full` when every place and every queue slot is taken.
    public func enter() async throws(Full) {
        let admitted = try state.withLock { state throws(Full) -> Bool in
            if state.running < maxRunning {
                state.running += 1
                return true
            }
            guard state.queued < maxWaiting else { throw Full() }
            state.queued += 1
            return false
        }
        if admitted { return }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                // A place may have come free between taking the queue slot and parking here.
                if state.running < maxRunning {
                    state.running += 1
                    state.queued -= 1
                    return true
                }
                state.parked.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Callers holding a queue slot now.
    public var queuedCount: Int { state.withLock { $0.queued } }

    /// Gives the place to the longest waiting caller, or frees it.
    public func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.parked.isEmpty else {
                state.running -= 1
                return nil
            }
            state.queued -= 1
            return state.parked.removeFirst()
        }
        next?.resume()
    }

    /// Runs `body` in a place.
    public func run<Value: Sendable>(_ body: () async -> Value) async throws(Full) -> Value {
        try await enter()
        defer { leave() }
        return await body()
    }

    /// Runs a throwing `body` in a place; `Full` when there is none to wait for.
    public func run<Value: Sendable>(throwing body: () async throws -> Value) async throws -> Value {
        try await enter()
        defer { leave() }
        return try await body()
    }
}
