import ArgumentParser
import Shared

struct CreateTopics: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-topics", abstract: "Create every topic of the catalogue and its dead-letter topic (existing ones are kept).")

    @OptionGroup var broker: BrokerOptions

    func run() async throws {
        let admin = try KafkaAdmin(broker: try broker.configuration(clientId: "platformctl"))
        let topics = TopicCatalogue.allWithDeadLetters
        try await admin.createTopics(topics)
        for topic in topics {
            print("\(topic.name)\t\(topic.partitions) partition(s)")
        }
    }
}
