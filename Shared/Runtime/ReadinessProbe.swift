import Logging
import PlatformCore
import PlatformHTTP
import PlatformKafka
import PlatformPostgres
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
    let consumerUnassignedLimit: Duration
    /// The service's logger, so the probe's queries log at the service's `LOG_LEVEL`.
    let logger: Logger

    public init(
        startGate: StartGate, postgres: PostgresClient, producer: KafkaProducer, relay: RelayHealth? = nil,
        relayStallLimit: Duration = .seconds(60), consumers: @escaping @Sendable () -> [ConsumerHealth] = { [] },
        consumerPauseLimit: Duration = .seconds(30), consumerUnassignedLimit: Duration = .seconds(60), logger: Logger
    ) {
        self.startGate = startGate
        self.postgres = postgres
        self.producer = producer
        self.relay = relay
        self.relayStallLimit = relayStallLimit
        self.consumers = consumers
        self.consumerPauseLimit = consumerPauseLimit
        self.consumerUnassignedLimit = consumerUnassignedLimit
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
            "consumers": Self.checkConsumers(consumers(), pauseLimit: consumerPauseLimit, unassignedLimit: consumerUnassignedLimit),
        ]
    }

    private func checkRelay() -> String {
        guard let stall = relay?.stall(limit: relayStallLimit) else { return "ok" }
        let seconds = Int(stall.duration.components.seconds)
        return "relay has not published for \(seconds) s: \(stall.lastError ?? "no error recorded")"
    }

    /// `ok`, or what keeps the service's consumers from applying events.
    static func checkConsumers(
        _ consumers: [ConsumerHealth], pauseLimit consumerPauseLimit: Duration, unassignedLimit consumerUnassignedLimit: Duration
    ) -> String {
        // A topic that does not exist is never made by a client: an operator must create it (stack.sh, platformctl
        // create-topics). A few seconds of grace cover a broker that is coming back.
        if let missing = consumers.first(where: { ($0.topicMissingFor ?? .zero) > .seconds(5) }), let waited = missing.topicMissingFor {
            return "a subscribed topic of \(missing.topics) is missing (for \(waited.components.seconds) s): create it with platformctl create-topics"
        }
        if let short = consumers.lazy.flatMap({ $0.partitionShortfall() }).first {
            return
                "topic \(short.topic) has \(short.found) partitions, the catalogue gives it \(short.expected): re-create it with platformctl create-topics on an empty broker, or add partitions"
        }
        // A member that holds nothing while its topics have partitions applies nothing: with no more instances
        // than partitions (the deployment's maximum) that is a stuck member, not a spare one. It rejoins by itself
        // (KAFKA_IDLE_REJOIN_MS); until it holds a partition again the orchestrator should not count on it.
        if let idle = consumers.first(where: { ($0.unassignedFor ?? .zero) > consumerUnassignedLimit }), let waited = idle.unassignedFor {
            return
                "the consumer of \(idle.topics) has held no partition for \(waited.components.seconds) s although its topics have partitions; it rejoins the group by itself"
        }
        let pauses = consumers.compactMap(\.longestPause)
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
