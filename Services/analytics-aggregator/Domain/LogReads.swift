/// What a generation read from one partition of the log (N6): the first offset it applied and how many events
/// it applied from there.
package struct PartitionRead: Sendable, Hashable {
    package let topic: String
    package let partition: Int
    package var firstOffset: Int64
    package var events: Int64

    package init(topic: String, partition: Int, firstOffset: Int64, events: Int64) {
        self.topic = topic
        self.partition = partition
        self.firstOffset = firstOffset
        self.events = events
    }

    /// The reads of `positions`, one per partition: the lowest offset and the count.
    package static func tally(_ positions: [(topic: String, partition: Int, offset: Int64)]) -> [PartitionRead] {
        var reads: [String: PartitionRead] = [:]
        for position in positions {
            let key = "\(position.partition) \(position.topic)"
            if var read = reads[key] {
                read.firstOffset = min(read.firstOffset, position.offset)
                read.events += 1
                reads[key] = read
            } else {
                reads[key] = PartitionRead(topic: position.topic, partition: position.partition, firstOffset: position.offset, events: 1)
            }
        }
        return reads.values.sorted { ($0.topic, $0.partition) < ($1.topic, $1.partition) }
    }
}

/// A rebuild's reads against the live generation's, before the rebuild is switched to (N6). Both generations
/// are written by the live consumer while the rebuild runs, so a log that still holds everything gives the
/// rebuild at least the live count on every topic. Fewer means the log lost events the live numbers hold (a
/// broker that keeps its log in memory restarted, retention deleted the oldest); a later first offset on a
/// partition means its start was deleted. Either way switching would drop numbers without a word.
package struct LogReadComparison: Sendable {
    package let live: [PartitionRead]
    package let rebuilt: [PartitionRead]

    package init(live: [PartitionRead], rebuilt: [PartitionRead]) {
        self.live = live
        self.rebuilt = rebuilt
    }

    /// One line per topic, or partition, that the rebuild read less of than the live generation applied; empty
    /// when it read at least as much everywhere.
    package var shortfalls: [String] {
        var lines: [String] = []
        let liveByTopic = Dictionary(grouping: live, by: \.topic)
        let rebuiltByTopic = Dictionary(grouping: rebuilt, by: \.topic)
        for topic in liveByTopic.keys.sorted() {
            let liveReads = liveByTopic[topic] ?? []
            let rebuiltReads = rebuiltByTopic[topic] ?? []
            let liveCount = liveReads.reduce(0) { $0 + $1.events }
            let rebuiltCount = rebuiltReads.reduce(0) { $0 + $1.events }
            if rebuiltCount < liveCount {
                lines.append("\(topic): the live generation applied \(liveCount) events, this rebuild read \(rebuiltCount)")
                continue
            }
            for liveRead in liveReads {
                guard let rebuiltRead = rebuiltReads.first(where: { $0.partition == liveRead.partition }),
                    rebuiltRead.firstOffset > liveRead.firstOffset
                else { continue }
                lines.append(
                    "\(topic) partition \(liveRead.partition): the live generation applied from offset \(liveRead.firstOffset), "
                        + "this rebuild's first was \(rebuiltRead.firstOffset) (the log's start was deleted)")
            }
        }
        return lines
    }
}
