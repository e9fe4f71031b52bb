import Logging
import PostgresNIO

/// Checks the dependencies a service cannot work without.
public struct ReadinessProbe: Sendable {
    let startGate: StartGate
    let postgres: PostgresClient
    let producer: KafkaProducer

    public init(startGate: StartGate, postgres: PostgresClient, producer: KafkaProducer) {
        self.startGate = startGate
        self.postgres = postgres
        self.producer = producer
    }

    /// `ok` or a reason, per dependency.
    public func check() async -> [String: String] {
        async let database = checkPostgres()
        async let broker = producer.isBrokerReachable(timeoutMilliseconds: 1_500)
        return [
            "startup": startGate.isOpen ? "ok" : "migrations not finished",
            "postgres": await database,
            "kafka": await broker ? "ok" : "broker unreachable",
        ]
    }

    private func checkPostgres() async -> String {
        do {
            try await postgres.query("SELECT 1", logger: Logger(label: "readiness"))
            return "ok"
        } catch {
            return "unreachable: \(String(describing: error).prefix(200))"
        }
    }
}
