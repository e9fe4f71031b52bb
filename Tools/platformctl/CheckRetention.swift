import ArgumentParser
import PlatformEvents
import PlatformKafka

struct CheckRetention: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-retention",
        abstract: "Report a topic the aggregates are rebuilt from whose retention would make a rebuild come out short.",
        discussion: """
            Exits 1 when a topic trims its log (a rebuild after that counts less, and is refused unless told to switch \
            anyway). A broker that does not describe topic configurations (Tansu) is reported as unknown: check by \
            hand that retention.ms and retention.bytes are -1 and cleanup.policy is delete.
            """)

    @OptionGroup var broker: BrokerOptions

    func run() async throws {
        let admin = try KafkaAdmin(broker: try broker.configuration(clientId: "platformctl"))
        let names = RebuildRetention.topics.map(\.name)
        let described = try await admin.topicConfigs(names)
        var trimmed = false
        for name in names {
            switch RebuildRetention.verdict(configs: described[name]) {
            case .keepsEverything:
                print("\(name)\tok: keeps every event")
            case .trims(let reason):
                trimmed = true
                print("\(name)\ttrims: \(reason); a rebuild after that comes out short")
            case .unknown:
                print("\(name)\tunknown: the broker did not describe its configuration")
            }
        }
        if trimmed { throw ExitCode(1) }
    }
}
