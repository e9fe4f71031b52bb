import Foundation

/// Takes and gives back tries against the attempt limits (U1, U4, U7) for one request: a try is taken before
/// the costly or guessable check runs, and given back when the check succeeded or never ran.
struct TryLedger: Sendable {
    let attempts: any AttemptRecording
    /// The time a lock is judged at; a test gives its memory store's clock.
    var now: @Sendable () -> Date = { Date() }

    /// The subject has used up its tries until `until`.
    struct Exhausted: Error, Equatable {
        let until: Date
    }

    func take(_ kind: AttemptKind, subject: String, limit: AttemptLimit) async throws -> AttemptTry {
        switch try await attempts.reserve(kind, subject: subject, limit: limit) {
        case .taken(let attempt): return attempt
        case .locked(let until): throw Exhausted(until: until)
        }
    }

    /// Throws `Exhausted` while the subject's failures lock it, taking no try.
    func checkNotLocked(_ kind: AttemptKind, subject: String, limit: AttemptLimit) async throws {
        let failures = try await attempts.failures(kind, subject: subject, within: limit.window)
        if let until = limit.lockedUntil(failures: failures, now: now()) { throw Exhausted(until: until) }
    }

    func release(_ tries: AttemptTry...) async throws {
        for attempt in tries { try await attempts.release(attempt) }
    }

    /// Runs `body`; when it throws (the bcrypt pool refused, a further limit was reached), `tries` are given back
    /// first: a request that was never evaluated is no failure.
    func givingBack<Value: Sendable>(_ tries: [AttemptTry], _ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch {
            for attempt in tries { try await attempts.release(attempt) }
            throw error
        }
    }
}
