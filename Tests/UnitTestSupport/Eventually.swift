import PlatformCore
import PlatformHTTP

/// Polls `condition` until true or `timeout`; returns its last answer.
public func eventually(
    timeout: Duration = .seconds(30), interval: Duration = .milliseconds(100), _ condition: @escaping @Sendable () async throws -> Bool
) async throws -> Bool {
    // Each look is bounded too: a condition that never answers (a lease that is never granted, say) makes the
    // test fail with the step's timeout instead of hanging the whole run.
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await withTimeLimit(max(deadline - ContinuousClock.now, .seconds(5)), condition) { return true }
        try await Task.sleep(for: interval)
    }
    return try await withTimeLimit(.seconds(30), condition)
}
