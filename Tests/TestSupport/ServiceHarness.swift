import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PlatformRuntime
import PostgresNIO
import Prometheus
import ServiceLifecycle

/// A service as its tests start it: its own `buildApplication` (handed in by the test target, which imports the
/// service), its schema and migrations, and the names it logs and joins its consumer group under.
public struct ServiceUnderTest: Sendable {
    public typealias Builder = @Sendable (EnvironmentReader, PrometheusCollectorRegistry, Logger) async throws -> any ApplicationProtocol

    public var label: String
    public var schema: String
    public var migrations: [Migration]
    public var build: Builder
    /// The variable that raises this service's log level in a test run (`WEATHER_TEST_LOG_LEVEL=debug`).
    public var logLevelVariable: String

    public init(label: String, schema: String, migrations: [Migration], logLevelVariable: String, build: @escaping Builder) {
        self.label = label
        self.schema = schema
        self.migrations = migrations
        self.logLevelVariable = logLevelVariable
        self.build = build
    }
}

/// The one test harness of the six services: a service's real `buildApplication` live on a database copied from
/// its migrated template, with topics of its own on the test broker; requests through Hummingbird's test client,
/// events in through a producer, and counts read from its database. Each service's harness adds its topics,
/// providers and helpers around it.
public struct ServiceHarness: Sendable {
    public let client: HarnessClient
    public let db: TestDatabase
    public let tokens: TestTokens
    public let topics: ServiceTopics
    /// Every setting the service was started with.
    public let environment: EnvironmentReader

    /// Creates `topics` (two partitions each), then runs `service` with the environment every service shares
    /// (database, broker, consumer group, token key, a fast outbox), its topic settings, the service's own
    /// `environment`, and `extra` last, so a test overrides any of them (a topic of its own included).
    /// `port`: serve on this port rather than a free one (a browser test must know a service's origin before it
    /// starts another that names it). `brokers`: a broker of the test's own (one it restarts) instead of the shared one.
    public static func run(
        _ service: ServiceUnderTest, topics: ServiceTopics, tokens: TestTokens, environment: [String: String],
        extra: [String: String] = [:], port: Int? = nil, brokers: String = TestInfrastructure.current.kafkaBrokers,
        logger: Logger? = nil, _ body: @Sendable (ServiceHarness) async throws -> Void
    ) async throws {
        try await topics.create(partitions: 2, brokers: brokers)
        let topics = topics.overridden(by: extra)
        try await withTestDatabase(schema: service.schema, migrations: service.migrations) { db in
            var shared = commonEnvironment(service, db: db, tokens: tokens, brokers: brokers)
            if let port { shared.merge(["HTTP_PORT": "\(port)", "METRICS_PORT": "0"]) { $1 } }
            let variables = EnvironmentReader(
                shared.merging(topics.byVariable) { $1 }.merging(environment) { $1 }.merging(extra) { $1 })
            let logger = logger ?? Logger(label: "\(service.label)-test")
            let app = try await service.build(variables, PrometheusCollectorRegistry(), logger)
            @Sendable func harness(_ client: HarnessClient) -> ServiceHarness {
                ServiceHarness(client: client, db: db, tokens: tokens, topics: topics, environment: variables)
            }
            guard let port else {
                try await app.test(.live) { client in try await body(harness(HarnessClient(framework: client))) }
                return
            }
            try await runOnPort(app, port: port, logger: logger) { try await body(harness($0)) }
        }
    }

    /// Runs `app` on the port its settings name until `body` returns, stopped the way HummingbirdTesting's live
    /// mode and SIGTERM stop it: a graceful shutdown, which ends the server (and its live streams) before
    /// Postgres. Cancelling the run instead stops every service at once: a stream then reads from a pool that
    /// has already gone, and the server waits for that stream for good.
    private static func runOnPort(
        _ app: any ApplicationProtocol, port: Int, logger: Logger, _ body: @Sendable (HarnessClient) async throws -> Void
    ) async throws {
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            let connection = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(20)))
            do {
                let listening = try await eventually { await httpStatus("http://127.0.0.1:\(port)/health") == 200 }
                guard listening else { throw HarnessError("the service did not listen on \(port)") }
                connection.connect()
                try await body(HarnessClient(connection: connection, port: port))
            } catch {
                // Stopped gracefully on a failure too (leaving the group by throwing would cancel the run); a run
                // that failed by itself (its port taken, say) is named with the failure it caused.
                try? await connection.shutdown()
                await services.triggerGracefulShutdown()
                do {
                    try await group.waitForAll()
                } catch let runFailure {
                    throw HarnessError("\(error); the service's run ended with: \(runFailure)")
                }
                throw error
            }
            try? await connection.shutdown()
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
    }

    /// What every service started by a test reads: its database, the test broker with a consumer group of its own
    /// read from the beginning, the test key's public half, a 20 ms outbox poll, and its log level.
    public static func commonEnvironment(
        _ service: ServiceUnderTest, db: TestDatabase, tokens: TestTokens, brokers: String = TestInfrastructure.current.kafkaBrokers
    ) -> [String: String] {
        ServiceEnvironment(db, tokens: tokens, brokers: brokers).variables([
            "KAFKA_GROUP_ID": "\(service.label)-\(uniqueSuffix())", "KAFKA_START_POSITION": "beginning", "OUTBOX_IDLE_INTERVAL_MS": "20",
            "LOG_LEVEL": ProcessInfo.processInfo.environment[service.logLevelVariable] ?? "warning",
        ])
    }

    /// A request with an optional JSON body and bearer token; the answer's status and its body read as JSON
    /// (or as text when it is not JSON).
    public func request(
        _ method: HTTPRequest.Method, _ path: String, json: Any? = nil, bearer: String? = nil, headers extra: HTTPFields = [:]
    ) async throws -> (HTTPResponse.Status, JSONValue) {
        var headers: HTTPFields = [.contentType: "application/json"]
        headers.append(contentsOf: extra)
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        let body = try json.map { ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: $0)) }
        return try await client.execute(uri: path, method: method, headers: headers, body: body) { response in
            let text = String(buffer: response.body)
            return (response.status, JSONValue(parsing: text))
        }
    }

    /// How many rows `sql` counts (its first column of its first row).
    public func count(_ sql: String) async throws -> Int { try await db.count(sql) }

    /// Publishes `envelope` to `topic` as its producer would, keyed by its key.
    public func publish<Payload: Codable & Sendable>(_ envelope: EventEnvelope<Payload>, to topic: String) async throws {
        try await publishEnvelope(envelope, to: topic)
    }

    /// Waits until the service's consumer has applied at least `events` events (the ids it records).
    public func waitProcessed(atLeast events: Int) async throws -> Bool {
        try await eventually { try await count("SELECT count(*)::int FROM processed_events") >= events }
    }
}

/// A service's harness built on `ServiceHarness`: the shared parts reached through it.
public protocol ServiceHarnessing: Sendable {
    var core: ServiceHarness { get }
}

extension ServiceHarnessing {
    public var client: HarnessClient { core.client }
    public var environment: EnvironmentReader { core.environment }
    public var db: TestDatabase { core.db }
    public var tokens: TestTokens { core.tokens }
    public var topics: ServiceTopics { core.topics }

    public func request(
        _ method: HTTPRequest.Method, _ path: String, json: Any? = nil, bearer: String? = nil, headers: HTTPFields = [:]
    ) async throws -> (HTTPResponse.Status, JSONValue) {
        try await core.request(method, path, json: json, bearer: bearer, headers: headers)
    }

    public func count(_ sql: String) async throws -> Int { try await core.count(sql) }

    public func waitProcessed(atLeast events: Int) async throws -> Bool { try await core.waitProcessed(atLeast: events) }

    public func publish<Payload: Codable & Sendable>(_ envelope: EventEnvelope<Payload>, to topic: String) async throws {
        try await core.publish(envelope, to: topic)
    }
}

/// A harness that could not start what a test needs.
struct HarnessError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
