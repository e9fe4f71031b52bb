import ArgumentParser
import Foundation
import Logging
import Shared

/// Measures the Shared Kafka client and the outbox relay against the real broker and Postgres, next to
/// librdkafka's own `rdkafka_performance` in the same run, and prints a Markdown table.
/// Run it through `scripts/bench.sh`, which starts throw-away infrastructure and passes its addresses.
@main
struct PlatformBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "platform-bench", abstract: "Throughput of the Shared Kafka client and the outbox relay.")

    @Option(help: "Broker list.") var brokers: String
    @Option(help: "Postgres host.") var postgresHost = "127.0.0.1"
    @Option(help: "Postgres port.") var postgresPort: Int
    @Option(help: "Postgres superuser.") var postgresUser = "postgres"
    @Option(help: "Messages per Kafka measurement.") var count = 200_000
    @Option(help: "Message size in bytes.") var size = 1_024
    @Option(help: "Events in the outbox measurement.") var outboxCount = 50_000
    @Option(help: "Path of librdkafka's rdkafka_performance.") var reference = "/usr/local/bin/rdkafka_performance"
    @Option(help: "bcrypt cost for the auth rows (the service's BCRYPT_COST).") var bcryptCost = 12

    func run() async throws {
        var table = ResultTable()
        let kafka = KafkaBench(brokers: brokers, count: count, size: size, referenceBinary: reference)
        progress("producing \(count) × \(size) B with the Shared producer and with rdkafka_performance")
        let (swiftProduce, referenceProduce, topics) = try await kafka.produce()
        table.add("producer (msgs/s)", swift: swiftProduce, reference: referenceProduce, target: "ratio >= 0.9")
        progress("consuming them back with the Shared consumer and with rdkafka_performance")
        let (swiftConsume, referenceConsume) = try await kafka.consume(topics: topics)
        table.add("consumer (msgs/s)", swift: swiftConsume, reference: referenceConsume, target: "ratio >= 0.9")
        progress("relaying \(outboxCount) outbox rows")
        let outbox = OutboxBench(
            brokers: brokers, postgresHost: postgresHost, postgresPort: postgresPort, postgresUser: postgresUser,
            count: outboxCount)
        table.add("outbox relay, commit to broker ack (events/s)", swift: try await outbox.run(), reference: nil, target: ">= 5,000")
        progress("auth: password checks at bcrypt cost \(bcryptCost) and access-token verifications")
        let auth = AuthBench(bcryptCost: UInt8(bcryptCost))
        table.add("auth: password checks at bcrypt cost \(bcryptCost) (/s, bounds logins/s)", swift: await auth.passwordChecksPerSecond(), reference: nil, target: "-")
        table.add("auth: access-token verifications (/s, per request in every service)", swift: try await auth.tokenVerificationsPerSecond(), reference: nil, target: "-")
        print(table.markdown(count: count, size: size))
    }
}

func progress(_ text: String) {
    FileHandle.standardError.write(Data("[bench] \(text)\n".utf8))
}
