import PlatformEvents
import Testing

/// N6: the topics the aggregates are rebuilt from keep every event, and a configuration that trims them is named.
@Suite("Platform: the retention a rebuild needs")
struct RebuildRetentionTests {
    @Test("N6: the rebuild's topics are the ones analytics-aggregator reads, kept for good")
    func topics() {
        #expect(
            Set(RebuildRetention.topics.map(\.name)) == [TopicCatalogue.telemetry.name, TopicCatalogue.users.name, TopicCatalogue.userCities.name])
        #expect(RebuildRetention.verdict(configs: RebuildRetention.keepForever) == .keepsEverything)
    }

    @Test("N6: a time or size limit, or compaction, trims the log; no description is unknown")
    func verdicts() {
        #expect(
            RebuildRetention.verdict(configs: ["retention.ms": "604800000", "retention.bytes": "-1"])
                == .trims("retention.ms=604800000 deletes events after 7 day(s)"))
        #expect(
            RebuildRetention.verdict(configs: ["retention.ms": "-1", "retention.bytes": "1073741824"])
                == .trims("retention.bytes=1073741824 deletes the oldest events past that size"))
        #expect(
            RebuildRetention.verdict(configs: ["cleanup.policy": "compact", "retention.ms": "1000"])
                == .trims("cleanup.policy=compact keeps one event per key"))
        #expect(
            RebuildRetention.verdict(configs: ["cleanup.policy": "compact,delete", "retention.ms": "-1", "retention.bytes": "-1"])
                == .trims("cleanup.policy=compact,delete keeps one event per key"))
        #expect(RebuildRetention.verdict(configs: nil) == .unknown)
        #expect(RebuildRetention.verdict(configs: [:]) == .unknown)
        // A value that is not a number is not read as a limit.
        #expect(RebuildRetention.verdict(configs: ["retention.ms": "soon"]) == .keepsEverything)
    }
}
