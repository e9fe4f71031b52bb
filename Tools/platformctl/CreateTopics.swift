import ArgumentParser
import Shared

struct CreateTopics: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-topics", abstract: "Create every topic of the catalogue and its dead-letter topic (existing ones are kept).")

    @OptionGroup var broker: BrokerOptions

    @Option(help: "Days the raw telemetry topic keeps events (retention.ms); 0 keeps them for good. A rebuild of the aggregates recounts only what it keeps.")
    var telemetryRetentionDays = 400

    func validate() throws {
        guard (0...3650).contains(telemetryRetentionDays) else { throw ValidationError("--telemetry-retention-days must be 0...3650") }
    }

    func run() async throws {
        let admin = try KafkaAdmin(broker: try broker.configuration(clientId: "platformctl"))
        let retention = telemetryRetentionDays == 0 ? "-1" : String(Int64(telemetryRetentionDays) * 86_400_000)
        let topics = TopicCatalogue.allWithDeadLetters.map { topic in
            var topic = topic
            if topic.name == TopicCatalogue.telemetry.name { topic.configs["retention.ms"] = retention }
            return topic
        }
        try await admin.createTopics(topics)
        for topic in topics {
            let configs = topic.configs.sorted { $0.key < $1.key }.map { "\t\($0.key)=\($0.value)" }.joined()
            print("\(topic.name)\t\(topic.partitions) partition(s)\(configs)")
        }
    }
}
