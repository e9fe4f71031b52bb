import ArgumentParser
import PlatformCore
import PlatformKafka

/// Operator tool for the platform: create topics, check their retention, generate token keys, dump a topic, re-feed dead letters or a range,
/// rewind a stopped consumer group.
@main
struct PlatformCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "platformctl",
        abstract: "Operate the mobile backend platform's Kafka topics and keys.",
        subcommands: [
            CreateTopics.self, CheckRetention.self, CheckServices.self, RenderServices.self, RequiredSettings.self, GenerateKeys.self, DumpTopic.self,
            Refeed.self,
            Rewind.self, KafkaACLs.self,
        ])
}

/// Options every Kafka subcommand shares.
struct BrokerOptions: ParsableArguments {
    @Option(help: "Comma-separated broker list (host:port).")
    var brokers: String = "127.0.0.1:9092"

    /// The brokers, with the same security settings the services read (`KAFKA_SECURITY_PROTOCOL`, `KAFKA_SASL_*`,
    /// `KAFKA_SSL_CA_FILE` from the environment), so the tool reaches a cluster the services reach.
    func configuration(clientId: String) throws -> KafkaBrokerConfiguration {
        KafkaBrokerConfiguration(bootstrapServers: brokers, clientId: clientId, security: try KafkaSecurity(environment: EnvironmentReader()))
    }
}
