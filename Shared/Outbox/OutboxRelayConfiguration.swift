/// How the outbox relay batches and how long sent rows are kept.
public struct OutboxRelayConfiguration: Sendable {
    /// Rows published per transaction.
    public var batchSize: Int = 1_000
    /// Pause between polls when the outbox is empty.
    public var idleInterval: Duration = .milliseconds(50)
    /// Pause after a failed publish (broker down), doubled up to `maxBackoff`.
    public var initialBackoff: Duration = .milliseconds(200)
    public var maxBackoff: Duration = .seconds(5)
    /// Sent rows older than this are deleted.
    public var retention: Duration = .seconds(86_400)

    public init() {}

    /// Reads `OUTBOX_BATCH_SIZE`, `OUTBOX_IDLE_INTERVAL_MS` and `OUTBOX_RETENTION_SECONDS`.
    public init(environment: EnvironmentReader) throws(ConfigError) {
        batchSize = try environment.int("OUTBOX_BATCH_SIZE", default: batchSize, range: 1...10_000)
        idleInterval = try environment.milliseconds("OUTBOX_IDLE_INTERVAL_MS", default: 50, range: 1...60_000)
        retention = .seconds(try environment.int("OUTBOX_RETENTION_SECONDS", default: 86_400, range: 0...31_536_000))
    }
}
