import Testing

@testable import AnalyticsAggregator

/// N6: a rebuild is compared with the live generation by what each read of the log.
@Suite("analytics-aggregator: a rebuild's reads against the live generation's")
struct LogReadComparisonTests {
    static func read(_ topic: String, _ partition: Int, from first: Int64, _ events: Int64) -> PartitionRead {
        PartitionRead(topic: topic, partition: partition, firstOffset: first, events: events)
    }

    @Test("N6: reads are tallied per partition: the lowest offset and the count")
    func tally() {
        let reads = PartitionRead.tally([("t", 1, 7), ("t", 0, 3), ("t", 1, 2), ("u", 1, 9), ("t", 1, 4)])
        #expect(reads == [Self.read("t", 0, from: 3, 1), Self.read("t", 1, from: 2, 3), Self.read("u", 1, from: 9, 1)])
        #expect(PartitionRead.tally([]).isEmpty)
    }

    @Test("N6: as much or more on every topic, from the same start, is no shortfall (live writes both while it runs)")
    func noShortfall() {
        let live = [Self.read("telemetry", 0, from: 0, 40), Self.read("telemetry", 1, from: 0, 12)]
        let rebuilt = [Self.read("telemetry", 0, from: 0, 41), Self.read("telemetry", 1, from: 0, 12), Self.read("users", 0, from: 0, 3)]
        #expect(LogReadComparison(live: live, rebuilt: rebuilt).shortfalls.isEmpty)
        // Partitions changed (the topic was recreated with more): the topic's total is what counts.
        let repartitioned = (0..<4).map { Self.read("telemetry", $0, from: 0, 13) }
        #expect(LogReadComparison(live: live, rebuilt: repartitioned).shortfalls.isEmpty)
    }

    @Test("N6: fewer events on a topic (a log emptied by a broker restart) is a shortfall naming both counts")
    func fewerEvents() {
        let live = [Self.read("telemetry", 0, from: 0, 40), Self.read("telemetry", 1, from: 0, 10), Self.read("users", 0, from: 0, 5)]
        let rebuilt = [Self.read("telemetry", 0, from: 0, 10), Self.read("users", 0, from: 0, 5)]
        let shortfalls = LogReadComparison(live: live, rebuilt: rebuilt).shortfalls
        #expect(shortfalls == ["telemetry: the live generation applied 50 events, this rebuild read 10"])
        // A topic the rebuild did not read at all.
        #expect(LogReadComparison(live: live, rebuilt: []).shortfalls.count == 2)
    }

    @Test("N6: a later first offset on a partition (its start deleted by retention) is a shortfall")
    func laterStart() {
        let live = [Self.read("telemetry", 0, from: 0, 40), Self.read("telemetry", 1, from: 5, 10)]
        let rebuilt = [Self.read("telemetry", 0, from: 30, 45), Self.read("telemetry", 1, from: 5, 10)]
        #expect(
            LogReadComparison(live: live, rebuilt: rebuilt).shortfalls == [
                "telemetry partition 0: the live generation applied from offset 0, this rebuild's first was 30 (the log's start was deleted)"
            ])
    }

    @Test("N6: the rebuild command takes --allow-shorter-log and refuses anything else")
    func options() throws {
        #expect(try RebuildOptions(arguments: []).allowShorterLog == false)
        #expect(try RebuildOptions(arguments: ["--allow-shorter-log"]).allowShorterLog == true)
        #expect(throws: RebuildOptionError.self) { try RebuildOptions(arguments: ["--allow-shorter"]) }
    }
}
