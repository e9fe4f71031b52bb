import Metrics

/// What a consumer reports on `/metrics` (X4): events by outcome, dead letters by reason, batch sizes and
/// apply durations, partitions paused on transient failures, and lag per partition.
struct ConsumerMetrics: Sendable {
    let group: String
    private let batchSize: Recorder
    private let applyDuration: Timer

    /// `topics`: the dead-letter counters of these start at 0, so that the first dead letter is an increase an
    /// alert sees (a counter first scraped at 1 shows no `increase`).
    init(group: String, topics: [String] = []) {
        self.group = group
        batchSize = Recorder(label: "consumer_batch_size", dimensions: [("group", group)], aggregate: true)
        applyDuration = Timer(label: "consumer_batch_apply_duration_seconds", dimensions: [("group", group)])
        for topic in topics {
            for reason in DeadLetterReason.allCases {
                Counter(label: "events_dead_lettered_total", dimensions: [("topic", topic), ("reason", reason.rawValue)]).increment(by: 0)
            }
        }
    }

    func consumed(topic: String, outcome: String, count: Int = 1) {
        guard count > 0 else { return }
        Counter(label: "events_consumed_total", dimensions: [("topic", topic), ("outcome", outcome)]).increment(by: count)
    }

    func deadLettered(topic: String, reason: DeadLetterReason) {
        Counter(label: "events_dead_lettered_total", dimensions: [("topic", topic), ("reason", reason.rawValue)]).increment()
    }

    func batchApplied(size: Int, duration: Duration) {
        batchSize.record(size)
        applyDuration.recordNanoseconds(Int64(duration.components.seconds) * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    func lag(topic: String, partition: Int32, messages: Int64) {
        Gauge(label: "consumer_lag", dimensions: [("group", group), ("topic", topic), ("partition", String(partition))]).record(messages)
    }

    func paused(seconds: Double) {
        Gauge(label: "consumer_paused_seconds", dimensions: [("group", group)]).record(seconds)
    }
}
