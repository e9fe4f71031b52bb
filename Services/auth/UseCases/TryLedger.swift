import Foundation

/// Takes and gives back tries against the attempt limits (U1, U4, U7) for one request: a try is taken before
/// the costly or guessable check runs, and given back when the check succeeded or never ran.
package struct TryLedger: Sendable {
    package let attempts: any AttemptRecording

    /// The time a lock is judged at; a test gives its memory store's clock.
    package var now: @Sendable () -> Date = { Date() }

    package init(attempts: any AttemptRecording, now: @escaping @Sendable () -> Date = { Date() }) {
        self.attempts = attempts
        self.now = now
    }

    /// The subject has used up its tries until `until`.
    package struct Exhausted: Error, Equatable {
        package let until: Date

        package init(until: Date) {
            self.until = until
        }
    }

    package func take(_ kind: AttemptKind, subject: String, limit: AttemptLimit) async throws -> AttemptTry {
        switch try await attempts.reserve(kind, subject: subject, limit: limit) {
        case .taken(let attempt): return attempt
        case .locked(let until): throw Exhausted(until: until)
        }
    }

    /// Throws `Exhausted` while the subject's failures lock it, taking no try.
    package func checkNotLocked(_ kind: AttemptKind, subject: String, limit: AttemptLimit) async throws {
        let failures = try await attempts.failures(kind, subject: subject, within: limit.window)
        if let until = limit.lockedUntil(failures: failures, now: now()) { throw Exhausted(until: until) }
    }

    package func release(_ tries: AttemptTry...) async throws {
        for attempt in tries { try await attempts.release(attempt) }
    }

    /// Runs `body`; when it throws (the bcrypt pool refused, a further limit was reached), `tries` are given back
    /// first: a request that was never evaluated is no failure.
    package func givingBack<Value: Sendable>(_ tries: [AttemptTry], _ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch {
            for attempt in tries { try await attempts.release(attempt) }
            throw error
        }
    }
}
