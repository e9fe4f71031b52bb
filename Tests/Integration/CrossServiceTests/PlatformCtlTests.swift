import Foundation
import PlatformEvents
import PlatformHTTP
import PlatformKafka
import ServiceTestSupport
import TestSupport
import Testing

/// `platformctl dump`, `refeed` and `rewind` (X5) as an operator runs them: the built executable
/// against the real broker, on topics of their own.
@Suite("platformctl replay commands (X5)")
struct PlatformCtlTests {
    struct Output {
        var status: Int32
        var text: String
        var lines: [String] { text.split(separator: "\n").map(String.init) }
    }

    static func platformctl(_ arguments: [String]) async throws -> Output {
        let directory = try #require(TestInfrastructure.current.buildDirectory, "TEST_BUILD_DIR is not set: run the tests with scripts/test.sh")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: directory).appendingPathComponent("platformctl")
        process.arguments = arguments + ["--brokers", TestInfrastructure.current.kafkaBrokers]
        process.environment = ["PATH": "/usr/bin:/bin"]
        let (status, text) = try await process.runCollectingOutput()
        return Output(status: status, text: text)
    }

    /// JSON lines of `dump` (standard error's progress lines are not JSON and are skipped).
    static func dumped(_ output: Output) -> [[String: Any]] {
        output.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func iso(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }

    static func send(_ topic: String, keys: [String], headers: [KafkaHeader] = []) async throws {
        try await withProducer { producer in
            try await producer.send(
                keys.enumerated().map { index, key in
                    KafkaOutgoingMessage(topic: topic, key: key, value: Array("{\"n\":\(index),\"key\":\"\(key)\"}".utf8), headers: headers)
                })
        }
    }

    @Test("X5: dump prints a topic as JSON lines, one key's messages, or a time range's")
    func dump() async throws {
        try await withTopic(partitions: 2) { topic in
            try await Self.send(topic, keys: ["k0", "k1", "k2", "k1", "k0"], headers: [KafkaHeader(name: "trace", value: Array("t1".utf8))])
            try await Task.sleep(for: .milliseconds(1_500))
            let middle = Date()
            try await Task.sleep(for: .milliseconds(500))
            try await Self.send(topic, keys: ["k1", "k3", "k4"])

            let all = Self.dumped(try await Self.platformctl(["dump", "--topic", topic, "--idle-seconds", "3"]))
            #expect(all.count == 8)
            // Headers kept: the first five carry one, the last three none (partitions print in either order).
            #expect(all.filter { $0["headers"] as? [String: String] == ["trace": "t1"] }.count == 5)
            let keyed = Self.dumped(try await Self.platformctl(["dump", "--topic", topic, "--key", "k1", "--idle-seconds", "3"]))
            #expect(keyed.count == 3 && keyed.allSatisfy { $0["key"] as? String == "k1" })
            let before = Self.dumped(try await Self.platformctl(["dump", "--topic", topic, "--until", Self.iso(middle), "--idle-seconds", "3"]))
            #expect(before.count == 5)
            let afterOutput = try await Self.platformctl(["dump", "--topic", topic, "--from", Self.iso(middle), "--idle-seconds", "3"])
            let after = Self.dumped(afterOutput)
            #expect(Set(after.compactMap { $0["key"] as? String }) == ["k1", "k3", "k4"] && after.count == 3)
            // The closing progress line counts the messages passed over before the start as read.
            #expect(afterOutput.text.contains("3 message(s) from \(topic) (8 read)"), "\(afterOutput.text)")
            let bad = try await Self.platformctl(["dump", "--topic", topic, "--from", "yesterday"])
            #expect(bad.status != 0 && bad.text.contains("--from"))
        }
    }

    @Test("X5: refeed puts dead letters back into their topic with their keys and headers, leaving the dlq- notes behind")
    func refeed() async throws {
        try await withTopic { topic in
            let dlq = Topic.deadLetterName(of: topic)
            try await Self.send(
                dlq, keys: ["a", "b", "c"],
                headers: [KafkaHeader(name: "trace", value: Array("t9".utf8)), KafkaHeader(name: "dlq-reason", value: Array("undecodable".utf8))])
            let output = try await Self.platformctl(["refeed", "--from", dlq, "--idle-seconds", "3"])
            #expect(output.status == 0 && output.text.contains("3 message(s) copied from \(dlq) to \(topic)"), "\(output.text)")
            #expect(output.lines.contains("copied 3"), "progress: \(output.text)")
            let back = Self.dumped(try await Self.platformctl(["dump", "--topic", topic, "--idle-seconds", "3"]))
            #expect(back.compactMap { $0["key"] as? String } == ["a", "b", "c"])
            #expect(back.allSatisfy { $0["headers"] as? [String: String] == ["trace": "t9"] })
            // A time range: nothing before the copy was made lies after now.
            let none = try await Self.platformctl(["refeed", "--from", dlq, "--to", topic, "--since", Self.iso(Date()), "--idle-seconds", "3"])
            #expect(none.text.contains("0 message(s) copied"), "\(none.text)")
        }
    }

    @Test("X5: refeed copies a time range of a topic into another, keys and headers kept; back into its own topic it copies each once")
    func refeedRange() async throws {
        try await withTopic(partitions: 2) { source in
            try await withTopic(partitions: 3) { target in
                try await Self.send(source, keys: ["old-1", "old-2"])
                try await Task.sleep(for: .milliseconds(1_500))
                let middle = Date()
                try await Task.sleep(for: .milliseconds(500))
                try await Self.send(source, keys: ["new-1", "new-2", "new-3"], headers: [KafkaHeader(name: "trace", value: Array("t7".utf8))])
                let output = try await Self.platformctl([
                    "refeed", "--from", source, "--to", target, "--since", Self.iso(middle), "--idle-seconds", "3",
                ])
                #expect(output.status == 0 && output.text.contains("3 message(s) copied"), "\(output.text)")
                let copied = Self.dumped(try await Self.platformctl(["dump", "--topic", target, "--idle-seconds", "3"]))
                #expect(Set(copied.compactMap { $0["key"] as? String }) == ["new-1", "new-2", "new-3"] && copied.count == 3)
                #expect(copied.allSatisfy { $0["headers"] as? [String: String] == ["trace": "t7"] })
                // Into its own topic (three partitions, each ending elsewhere): every original is copied once, and
                // no copy is read back and copied again.
                try await Self.send(target, keys: (0..<9).map { "k\($0)" })
                let own = try await Self.platformctl(["refeed", "--from", target, "--to", target, "--idle-seconds", "3"])
                #expect(own.text.contains("12 message(s) copied"), "\(own.text)")
                let twice = Self.dumped(try await Self.platformctl(["dump", "--topic", target, "--idle-seconds", "3"]))
                let keys = Dictionary(grouping: twice.compactMap { $0["key"] as? String }, by: { $0 }).mapValues(\.count)
                #expect(twice.count == 24 && keys.count == 12 && keys.values.allSatisfy { $0 == 2 }, "\(keys)")
            }
        }
    }

    @Test("X5: rewind moves a stopped group to a time or the beginning; a group with a member is refused")
    func rewind() async throws {
        try await withTopic(partitions: 2) { topic in
            let group = "rewind-\(uniqueSuffix())"
            try await Self.send(topic, keys: (0..<6).map { "early-\($0)" })
            try await Task.sleep(for: .milliseconds(1_500))
            let middle = Date()
            try await Task.sleep(for: .milliseconds(500))
            try await Self.send(topic, keys: (0..<4).map { "late-\($0)" })
            // The group reads everything and leaves (its offsets committed).
            var consumer = try makeConsumer(topics: [topic], group: group, startPosition: .beginning)
            #expect(try await collect(10, from: consumer).count == 10)
            await consumer.close()

            let toTime = try await Self.platformctl(["rewind", "--group", group, "--topic", topic, "--to", Self.iso(middle)])
            #expect(toTime.status == 0, "\(toTime.text)")
            consumer = try makeConsumer(topics: [topic], group: group)
            let late = try await collect(10, from: consumer, timeout: .seconds(15))
            #expect(Set(late.compactMap(\.keyString)) == Set((0..<4).map { "late-\($0)" }) && late.count == 4)

            // With a member in the group, the broker keeps its offsets.
            let busy = try await Self.platformctl(["rewind", "--group", group, "--topic", topic, "--to", "beginning"])
            // Tansu describes every group as Empty: there the broker's refusal of the commit is what refuses.
            #expect(busy.status != 0 && (busy.text.contains("has 1 member") || busy.text.contains("refused the new offsets")), "\(busy.text)")
            await consumer.close()
            // ... and the refused rewind changed nothing: the group goes on from its end, with nothing to read again.
            consumer = try makeConsumer(topics: [topic], group: group)
            let again = try await collect(1, from: consumer, timeout: .seconds(10))
            #expect(again.isEmpty, "a refused rewind moved the group: \(again.compactMap(\.keyString))")
            await consumer.close()

            let toStart = try await Self.platformctl(["rewind", "--group", group, "--topic", topic, "--to", "beginning"])
            #expect(toStart.status == 0, "\(toStart.text)")
            consumer = try makeConsumer(topics: [topic], group: group)
            #expect(try await collect(10, from: consumer, timeout: .seconds(15)).count == 10)
            await consumer.close()
        }
    }

    @Test(
        "N6, U9: create-topics keeps the topic the aggregates are rebuilt from for good, those naming accounts a month; check-retention reads them back"
    )
    func rebuildRetention() async throws {
        let created = try await Self.platformctl(["create-topics"])
        #expect(created.status == 0, "\(created.text)")
        let rebuildSources = Set(RebuildRetention.topics.map(\.name))
        for line in created.lines {
            let name = String(line.split(separator: "\t").first ?? "")
            let keptForGood = line.contains("retention.ms=-1") && line.contains("retention.bytes=-1")
            #expect(keptForGood == rebuildSources.contains(name), "\(line)")
            // U9: the topics that name accounts by id, and feed no rebuild, let a deleted account's id go after a month.
            let namesAccounts = [TopicCatalogue.users.name, TopicCatalogue.userCities.name].contains(name)
            #expect(line.contains("retention.ms=2592000000") == namesAccounts, "\(line)")
        }
        #expect(created.lines.count == TopicCatalogue.allWithDeadLetters.count, "\(created.text)")

        // A window on telemetry is the operator's choice, said to cost the rebuild.
        let windowed = try await Self.platformctl(["create-topics", "--telemetry-retention-days", "30"])
        #expect(windowed.status == 0, "\(windowed.text)")
        #expect(windowed.lines.contains { $0.hasPrefix("\(TopicCatalogue.telemetry.name)\t") && $0.contains("retention.ms=2592000000") })
        #expect(windowed.text.contains("warning: \(TopicCatalogue.telemetry.name) keeps 30 days"), "\(windowed.text)")

        // Each rebuild topic gets a verdict; Tansu answers DescribeConfigs empty, so there it is unknown, not ok.
        let checked = try await Self.platformctl(["check-retention"])
        #expect(checked.status == 0, "\(checked.text)")
        for name in rebuildSources {
            let line = checked.lines.first { $0.hasPrefix("\(name)\t") }
            #expect(
                line?.contains("ok: keeps every event") == true || line?.contains("unknown: the broker did not describe") == true, "\(checked.text)")
        }
    }
}
