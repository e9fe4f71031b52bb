import PlatformCore

/// How the outbox relay batches and how long sent rows are kept.
///
/// | variable | default |
/// |---|---|
/// | `OUTBOX_BATCH_SIZE` | `1000`: rows per relay transaction |
/// | `OUTBOX_IDLE_INTERVAL_MS` | `50`: the relay's pause when the outbox is empty |
/// | `OUTBOX_RETENTION_SECONDS` | `86400`: how long sent rows are kept |
/// | `OUTBOX_STALL_LIMIT_MS` | `60000`: a relay without progress while rows wait for longer than this makes `/ready` answer 503 |
/// | `OUTBOX_FAILURES_BEFORE_REBUILD` | `1`: failed publishes in a row after which the producer is rebuilt |
/// | `OUTBOX_REPUBLISH_WINDOW_SECONDS` | `0` (the local stack sets `300`): after a producer rebuild, rows sent this recently are published again (for brokers that lose acknowledged messages) |
/// | `OUTBOX_STEP_TIMEOUT_MS` | `60000`: one relay batch taking longer is abandoned and retried |
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
    /// Failed publishes in a row after which the producer is rebuilt.
    public var failuresBeforeProducerRebuild: Int = 1
    /// How long the relay may go without progress, while rows wait, before `/ready` says it is stalled.
    public var stallLimit: Duration = .seconds(60)
    /// Rows sent this long before a producer rebuild are published again (0: never). For brokers that can lose
    /// acknowledged messages, such as the local stack's memory broker.
    public var republishWindow: Duration = .zero
    /// How long one batch (claim, publish, mark sent) may take before it is cancelled and retried; longer than
    /// the producer's message timeout, so a send fails by itself first.
    public var stepTimeLimit: Duration = .seconds(60)
    /// How often the backlog gauges are read.
    public var backlogReadingInterval: Duration = .seconds(5)

    public init() {}

    /// Reads the settings of the type's table.
    public init(environment: EnvironmentReader) throws(ConfigError) {
        batchSize = try environment.int("OUTBOX_BATCH_SIZE", default: batchSize, range: 1...10_000)
        idleInterval = try environment.milliseconds("OUTBOX_IDLE_INTERVAL_MS", default: 50, range: 1...60_000)
        retention = .seconds(try environment.int("OUTBOX_RETENTION_SECONDS", default: 86_400, range: 0...31_536_000))
        stallLimit = try environment.milliseconds("OUTBOX_STALL_LIMIT_MS", default: 60_000, range: 1_000...3_600_000)
        republishWindow = .seconds(try environment.int("OUTBOX_REPUBLISH_WINDOW_SECONDS", default: 0, range: 0...86_400))
        stepTimeLimit = try environment.milliseconds("OUTBOX_STEP_TIMEOUT_MS", default: 60_000, range: 1_000...3_600_000)
        failuresBeforeProducerRebuild = try environment.int("OUTBOX_FAILURES_BEFORE_REBUILD", default: 1, range: 1...1_000)
    }
}
