import Synchronization

/// A step that did not finish in time. Seen after a Postgres restart: a query begun while the server went
/// down never completed and ignored cancellation, though the pool served new requests; without a limit the
/// consumer or the relay waited on it forever. Counts as transient (`EventFailure`): the step is tried again.
public struct StepTimeout: Error, CustomStringConvertible, Sendable {
    public let limit: Duration
    public init(limit: Duration) { self.limit = limit }
    public var description: String { "step did not finish within \(limit)" }
}

/// Runs `body`, throwing `StepTimeout` when it takes longer than `limit`. The body runs in a task of its own
/// that is cancelled then and left behind: a task group would wait for a body that ignores cancellation, which
/// is the very hang this guards against.
public func withTimeLimit<Value: Sendable>(
    _ limit: Duration, _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let outcome = StepOutcome<Value>()
    return try await withCheckedThrowingContinuation { continuation in
        outcome.install(continuation)
        let work = Task {
            do {
                outcome.finish(.success(try await body()))
            } catch {
                outcome.finish(.failure(error))
            }
        }
        let timer = Task {
            try await Task.sleep(for: limit)
            if outcome.finish(.failure(StepTimeout(limit: limit))) { work.cancel() }
        }
        // The usual case: the body finished first, and the timer goes at once instead of sleeping on.
        Task {
            _ = await work.result
            timer.cancel()
        }
    }
}

/// Resumes the continuation once, with whichever of the body and the timer finishes first.
private final class StepOutcome<Value: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Value, any Error>?, done: Bool)>((nil, false))

    func install(_ continuation: CheckedContinuation<Value, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// True when this call resumed the continuation.
    @discardableResult
    func finish(_ result: Result<Value, any Error>) -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            guard !state.done else { return nil }
            state.done = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
        return continuation != nil
    }
}
