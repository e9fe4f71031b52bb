import Logging
import PostgresNIO

/// Checks the dependencies a service cannot work without.
public struct ReadinessProbe: Sendable {
    let startGate: StartGate
    let postgres: PostgresClient
    let producer: KafkaProducer
    /// The service's logger, so the probe's queries log at the service's `LOG_LEVEL`.
    let logger: Logger

    public init(startGate: StartGate, postgres: PostgresClient, producer: KafkaProducer, logger: Logger) {
        self.startGate = startGate
        self.postgres = postgres
        self.producer = producer
        self.logger = logger
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

    /// `SELECT 1`, given at most two seconds: an orchestrator's probe must get an answer, not hang on a pool
    /// that is still trying to connect.
    private func checkPostgres() async -> String {
        let (postgres, logger) = (self.postgres, self.logger)
        return await withTaskGroup(of: String?.self) { group in
            group.addTask {
                do {
                    try await postgres.query("SELECT 1", logger: logger)
                    return "ok"
                } catch {
                    return "unreachable: \(String(reflecting: error).prefix(200))"
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(2))
                return Task.isCancelled ? nil : "no answer within 2 s"
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? "no answer within 2 s"
        }
    }
}
