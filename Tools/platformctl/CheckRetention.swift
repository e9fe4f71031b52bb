import ArgumentParser
import PlatformEvents
import PlatformKafka

struct CheckRetention: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-retention",
        abstract: """
            Report a topic the aggregates are rebuilt from whose retention would make a rebuild come out short, and a \
            topic naming accounts that keeps events longer than the catalogue says.
            """,
        discussion: """
            Exits 1 when a rebuild topic trims its log (a rebuild after that counts less, and is refused unless told to \
            switch anyway), or when a topic that names accounts by id (auth.users, weather.user-cities) keeps events \
            longer than its days (a deleted account's id would stay; a stack made before they had a month). A broker \
            that does not describe topic configurations (Tansu) is reported as unknown: check by hand.
            """)

    @OptionGroup var broker: BrokerOptions

    func run() async throws {
        let admin = try KafkaAdmin(broker: try broker.configuration(clientId: "platformctl"))
        let names = RebuildRetention.topics.map(\.name)
        let bounded = TopicCatalogue.all.filter { $0.retentionDays != nil }
        let described = try await admin.topicConfigs(names + bounded.map(\.name))
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
        var keptTooLong = false
        for topic in bounded {
            guard let days = topic.retentionDays else { continue }
            switch RetentionBound.verdict(configs: described[topic.name], days: days) {
            case .withinBound:
                print("\(topic.name)\tok: keeps events \(days) days at most")
            case .keepsLonger(let reason):
                keptTooLong = true
                print("\(topic.name)\tkeeps too long: \(reason); set retention.ms=\(Int64(days) * 86_400_000) (U9)")
            case .unknown:
                print("\(topic.name)\tunknown: the broker did not describe its configuration")
            }
        }
        if trimmed || keptTooLong { throw ExitCode(1) }
    }
}
