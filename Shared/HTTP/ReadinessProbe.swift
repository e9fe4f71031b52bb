import Logging
import PostgresNIO

/// Checks the dependencies a service cannot work without, and that its event pipeline moves: the outbox
/// relay has not been failing for longer than its limit, and no consumer partition has been paused on
/// transient failures for longer than its limit.
public struct ReadinessProbe: Sendable {
    let startGate: StartGate
    let postgres: PostgresClient
    let producer: KafkaProducer
    let relay: RelayHealth?
    let relayStallLimit: Duration
    /// The health of every consumer of the service, read at each check (consumers are made after the router).
    let consumers: @Sendable () -> [ConsumerHealth]
    let consumerPauseLimit: Duration
    /// The service's logger, so the probe's queries log at the service's `LOG_LEVEL`.
    let logger: Logger

    public init(
        startGate: StartGate, postgres: PostgresClient, producer: KafkaProducer, relay: RelayHealth? = nil,
        relayStallLimit: Duration = .seconds(60), consumers: @escaping @Sendable () -> [ConsumerHealth] = { [] },
        consumerPauseLimit: Duration = .seconds(30), logger: Logger
    ) {
        self.startGate = startGate
        self.postgres = postgres
        self.producer = producer
        self.relay = relay
        self.relayStallLimit = relayStallLimit
        self.consumers = consumers
        self.consumerPauseLimit = consumerPauseLimit
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
            "outbox": checkRelay(),
            "consumers": checkConsumers(),
        ]
    }

    private func checkRelay() -> String {
        guard let stall = relay?.stall(limit: relayStallLimit) else { return "ok" }
        let seconds = Int(stall.duration.components.seconds)
        return "relay has not published for \(seconds) s: \(stall.lastError ?? "no error recorded")"
    }

    private func checkConsumers() -> String {
        // A topic that does not exist is never made by a client: an operator must create it (stack.sh, platformctl
        // create-topics). A few seconds of grace cover a broker that is coming back.
        if let missing = consumers().first(where: { ($0.topicMissingFor ?? .zero) > .seconds(5) }), let waited = missing.topicMissingFor {
            return "a subscribed topic of \(missing.topics) is missing (for \(waited.components.seconds) s): create it with platformctl create-topics"
        }
        let pauses = consumers().compactMap(\.longestPause)
        guard let longest = pauses.min(by: { $0.since < $1.since }), ContinuousClock.now - longest.since > consumerPauseLimit
        else { return "ok" }
        let seconds = Int((ContinuousClock.now - longest.since).components.seconds)
        return "partition \(longest.partition) paused for \(seconds) s: \(longest.reason)"
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
