import PlatformKafka

/// Where each partition of a topic ended when a copy of it started. A copy into the topic it reads (a range back
/// into its own topic, dead letters that fail again) lands past those ends, as does anything produced meanwhile,
/// and is left alone; a copy is complete when every partition was read up to its end. Per partition, because a
/// total would let a copy read early in one partition stand in for an original not yet read in another.
struct PartitionEnds {
    private var end: [Int32: Int64] = [:]
    private var next: [Int32: Int64] = [:]

    init(_ lags: [KafkaConsumer.PartitionLag]) {
        for lag in lags {
            end[lag.partition] = lag.end
            next[lag.partition] = lag.end - lag.lag
        }
    }

    /// Whether `message` was in the topic when the copy started; records it as read.
    mutating func contains(_ message: KafkaMessage) -> Bool {
        guard let last = end[message.partition], message.offset < last else { return false }
        next[message.partition] = Swift.max(next[message.partition] ?? 0, message.offset + 1)
        return true
    }

    /// Every partition was read up to where it ended.
    var allRead: Bool { end.allSatisfy { partition, last in (next[partition] ?? 0) >= last } }
}
