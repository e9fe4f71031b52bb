import ArgumentParser
import Shared

/// Operator tool for the platform: create topics, generate token keys, dump a topic, re-feed dead letters.
@main
struct PlatformCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "platformctl",
        abstract: "Operate the mobile backend platform's Kafka topics and keys.",
        subcommands: [CreateTopics.self, GenerateKeys.self, DumpTopic.self, Refeed.self])
}

/// Options every Kafka subcommand shares.
struct BrokerOptions: ParsableArguments {
    @Option(help: "Comma-separated broker list (host:port).")
    var brokers: String = "127.0.0.1:9092"

    func configuration(clientId: String) -> KafkaBrokerConfiguration {
        KafkaBrokerConfiguration(bootstrapServers: brokers, clientId: clientId)
    }
}
