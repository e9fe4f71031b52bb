import PlatformEvents
import Testing

/// N6: the topics the aggregates are rebuilt from keep every event, and a configuration that trims them is named.
@Suite("Platform: the retention a rebuild needs")
struct RebuildRetentionTests {
    @Test("N6, U9: the rebuild's topic is the telemetry, kept for good; the topics naming accounts by id keep a month")
    func topics() {
        #expect(Set(RebuildRetention.topics.map(\.name)) == [TopicCatalogue.telemetry.name])
        #expect(RebuildRetention.verdict(configs: RebuildRetention.keepForever) == .keepsEverything)
        let month = String(30 * 86_400_000)
        let specs = Dictionary(uniqueKeysWithValues: TopicCatalogue.allWithDeadLetters.map { ($0.name, $0.configs) })
        #expect(specs[TopicCatalogue.users.name]?["retention.ms"] == month)
        #expect(specs[TopicCatalogue.userCities.name]?["retention.ms"] == month)
        #expect(specs[TopicCatalogue.telemetry.name]?["retention.ms"] == nil, "create-topics sets its keep-for-good")
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

    @Test("U9: a topic naming accounts keeps events its days at most; for good or longer is named; no description is unknown")
    func accountTopicBound() {
        #expect(RetentionBound.verdict(configs: ["retention.ms": "2592000000"], days: 30) == .withinBound)
        #expect(RetentionBound.verdict(configs: ["retention.ms": "604800000"], days: 30) == .withinBound)
        #expect(RetentionBound.verdict(configs: ["retention.ms": "-1"], days: 30) == .keepsLonger("retention.ms=-1 keeps events for good"))
        #expect(
            RetentionBound.verdict(configs: ["retention.ms": "2592000001"], days: 30)
                == .keepsLonger("retention.ms=2592000001 is more than 30 days"))
        #expect(RetentionBound.verdict(configs: ["cleanup.policy": "delete"], days: 30) == .keepsLonger("retention.ms is not set"))
        #expect(RetentionBound.verdict(configs: nil, days: 30) == .unknown)
    }
}
