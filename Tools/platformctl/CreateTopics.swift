import ArgumentParser
import Foundation
import PlatformEvents
import PlatformKafka

struct CreateTopics: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-topics", abstract: "Create every topic of the catalogue and its dead-letter topic (existing ones are kept).")

    @OptionGroup var broker: BrokerOptions

    @Option(
        help: """
            Days the raw telemetry topic keeps events (retention.ms); 0 (the default) keeps them for good, as every \
            topic the aggregates are rebuilt from is kept. A rebuild recounts only what the log keeps.
            """)
    var telemetryRetentionDays = 0

    func validate() throws {
        guard (0...3650).contains(telemetryRetentionDays) else { throw ValidationError("--telemetry-retention-days must be 0...3650") }
    }

    func run() async throws {
        let admin = try KafkaAdmin(broker: try broker.configuration(clientId: "platformctl"))
        let rebuildSources = Set(RebuildRetention.topics.map(\.name))
        let topics = TopicCatalogue.allWithDeadLetters.map { topic in
            var topic = topic
            if rebuildSources.contains(topic.name) { topic.configs.merge(RebuildRetention.keepForever) { $1 } }
            if topic.name == TopicCatalogue.telemetry.name && telemetryRetentionDays > 0 {
                topic.configs["retention.ms"] = String(Int64(telemetryRetentionDays) * 86_400_000)
            }
            return topic
        }
        try await admin.createTopics(topics)
        for topic in topics {
            let configs = topic.configs.sorted { $0.key < $1.key }.map { "\t\($0.key)=\($0.value)" }.joined()
            print("\(topic.name)\t\(topic.partitions) partition(s)\(configs)")
        }
        if telemetryRetentionDays > 0 {
            FileHandle.standardError.write(
                Data(
                    ("warning: \(TopicCatalogue.telemetry.name) keeps \(telemetryRetentionDays) days: a rebuild of the aggregates after "
                        + "that reads less than the live numbers hold and refuses to switch (analytics-aggregator rebuild --allow-shorter-log)\n")
                        .utf8))
        }
    }
}
