/// How often a failing handler is retried before its event is dead-lettered.
public struct RetryPolicy: Sendable {
    public var maxAttempts: Int
    public var initialDelay: Duration
    public var maxDelay: Duration

    public init(maxAttempts: Int = 5, initialDelay: Duration = .milliseconds(100), maxDelay: Duration = .seconds(5)) {
        self.maxAttempts = maxAttempts
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
    }

    /// Delay before attempt `attempt + 1` (attempts count from 1): doubling, capped.
    public func delay(after attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(1, attempt) { delay = min(delay * 2, maxDelay) }
        return min(delay, maxDelay)
    }
}
