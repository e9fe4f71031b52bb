import ArgumentParser
import PlatformDeploy
import PlatformEvents

struct KafkaACLs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kafka-acls",
        abstract: "Print the broker's access rules (Strimzi KafkaUser resources) that the topic catalogue implies.")

    @Option(help: "Namespace of the KafkaUser resources.") var namespace = "mobile-backend"
    @Option(help: "The Strimzi Kafka cluster's name (the strimzi.io/cluster label).") var cluster = "platform"

    func run() async throws {
        print(KafkaAccessList.strimziUsers(namespace: namespace, cluster: cluster), terminator: "")
    }
}
