/// How often a failing handler is retried before its event is dead-lettered, and how retries are paced.
public struct RetryPolicy: Sendable {
    public var maxAttempts: Int
    public var initialDelay: Duration
    public var maxDelay: Duration
    /// How long one try (a batch's transaction, a dead-letter publish) may take before it is cancelled and
    /// counted as a transient failure.
    public var stepTimeLimit: Duration

    public init(
        maxAttempts: Int = 5, initialDelay: Duration = .milliseconds(100), maxDelay: Duration = .seconds(5),
        stepTimeLimit: Duration = .seconds(30)
    ) {
        self.maxAttempts = maxAttempts
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.stepTimeLimit = stepTimeLimit
    }

    /// Delay before attempt `attempt + 1` (attempts count from 1): doubling, capped.
    public func delay(after attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(1, attempt) { delay = min(delay * 2, maxDelay) }
        return min(delay, maxDelay)
    }
}
