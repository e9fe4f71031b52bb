import Foundation
import Hummingbird
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformPostgres
import PlatformRuntime
import PostgresNIO
import Prometheus

/// The smallest service on the platform runtime, for the fault suite and the consumer bench: everything is
/// the real wiring (outbox, relay, rebuilt producer, batched idempotent consumer, crash guard, readiness), and
/// the domain is one table. It consumes `PROBE_TOPIC`, applying each event as one upsert into `effects`;
/// `POST /emit?from=&count=` writes events with those sequence numbers to its outbox for the same topic, in
/// one transaction. An event whose payload says `trap` stops the process the way a trap in a handler would,
/// to show that such an event cannot crash-loop a service.
enum PipelineProbe {
    static let identity = ServiceIdentity(name: "pipeline-probe", schema: "pipeline_probe", defaultPort: 8090)

    static func buildApplication(
        environment: EnvironmentReader, registry: PrometheusCollectorRegistry, logger: Logger
    ) async throws -> some ApplicationProtocol {
        let runtime = try await PlatformRuntime(
            identity: identity, environment: environment, migrations: [ProbeEffects.migration], registry: registry, logger: logger)
        let topic = try environment.requiredString("PROBE_TOPIC")
        let router = runtime.makeRouter()
        let emitter = ProbeEmitter(client: runtime.postgres, topic: topic, logger: runtime.logger)
        router.post("emit") { request, _ -> HTTPResponse.Status in
            let from = request.uri.queryParameters["from"].flatMap { Int($0) } ?? 0
            let count = request.uri.queryParameters["count"].flatMap { Int($0) } ?? 0
            guard (0...1_000_000_000).contains(from), (0...100_000).contains(count) else {
                throw APIError.badRequest("invalid_range", "from must be 0...1e9 and count 0...100000")
            }
            try await emitter.emit(from: from, count: count)
            return .accepted
        }
        // Two writers share the probe's topic by design (its own outbox and the fault suite's direct sends), so
        // the topic has no single owner to check.
        let consumer = try runtime.makeConsumer(topics: [ConsumedTopic(name: topic, producer: nil)], handler: ProbeEffects())
        return runtime.makeApplication(router: router, consumers: [consumer])
    }
}

/// The payload of a probe event.
struct ProbeEvent: Codable, Sendable {
    var sequence: Int
    var trap: Bool = false
}

/// Applies a probe event: one upsert into `effects`, counting applications so a double shows. Traps on purpose
/// for an event that asks for it.
struct ProbeEffects: EventHandler {
    static let migration = Migration(
        "0001_effects",
        ["CREATE TABLE effects (sequence bigint PRIMARY KEY, event_id uuid NOT NULL, applications int NOT NULL DEFAULT 1)"])

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        let payload = try event.payload(as: ProbeEvent.self)
        if payload.trap {
            // The fault suite's stand-in for an `Int(Double.nan)` in a handler: the process dies at once.
            logger.critical("probe event asks for a trap", metadata: ["sequence": "\(payload.sequence)"])
            exit(134)
        }
        try await connection.query(
            """
            INSERT INTO effects (sequence, event_id) VALUES (\(payload.sequence), \(event.header.id))
            ON CONFLICT (sequence) DO UPDATE SET applications = effects.applications + 1
            """, logger: logger)
    }
}

/// Writes probe events to the outbox, as a service writes events with its state changes.
struct ProbeEmitter: Sendable {
    let client: PostgresClient
    let topic: String
    let logger: Logger

    func emit(from: Int, count: Int) async throws {
        guard count > 0 else { return }
        try await client.inTransaction(logger: logger) { connection in
            for sequence in from..<(from + count) {
                let envelope = EventEnvelope(
                    type: EventType("probe.applied"), producer: PipelineProbe.identity.name, key: String(sequence % 64),
                    payload: ProbeEvent(sequence: sequence))
                try await Outbox.enqueue(envelope, toTopicNamed: topic, on: connection, logger: logger)
            }
        }
    }
}
