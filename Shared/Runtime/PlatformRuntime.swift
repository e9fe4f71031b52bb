import Hummingbird
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformKafka
import PlatformPostgres
import PostgresNIO
import Prometheus
import ServiceLifecycle
import Synchronization

/// The platform half of every service, built from its configuration: the Postgres client, the Kafka producer,
/// the outbox relay, the event consumers, and an HTTP router that already has the operational routes and the
/// JSON error edge. A service adds its routes and handlers, then calls `makeApplication`.
public final class PlatformRuntime: Sendable {
    public let configuration: PlatformConfiguration
    public let logger: Logger
    public let postgres: PostgresClient
    public let producer: KafkaProducer
    public let startGate = StartGate()
    public let registry: PrometheusCollectorRegistry
    /// Verifies access tokens for the routes that need a user (`AccessTokenMiddleware`).
    public let tokenVerifier: AccessTokenVerifier
    /// Publishes the service's outbox; runs once the migrations are done.
    public let relay: OutboxRelay
    let migrations: [Migration]
    /// The health of every consumer made so far, for readiness.
    private let consumerHealth = Mutex<[ConsumerHealth]>([])

    /// Reads the platform configuration, `AUTH_PUBLIC_KEY` and `ERASED_ACCOUNTS_KEY` from `environment`; fails naming the variable.
    public convenience init(
        identity: ServiceIdentity, environment: EnvironmentReader, migrations: [Migration],
        registry: PrometheusCollectorRegistry, logger: Logger
    ) async throws {
        let configuration = try PlatformConfiguration(identity: identity, environment: environment)
        let verifier = try await AccessTokenVerifier(environment: environment)
        try self.init(
            configuration: configuration, tokenVerifier: verifier, migrations: migrations, registry: registry, logger: logger)
    }

    public init(
        configuration: PlatformConfiguration, tokenVerifier: AccessTokenVerifier, migrations: [Migration],
        registry: PrometheusCollectorRegistry, logger: Logger
    ) throws {
        self.tokenVerifier = tokenVerifier
        var logger = logger
        logger.logLevel = configuration.logLevel
        logger[metadataKey: "service"] = "\(configuration.identity.name)"
        self.configuration = configuration
        self.logger = logger
        self.migrations = migrations
        self.registry = registry
        postgres = configuration.postgres.makeClient(logger: logger)
        producer = try KafkaProducer(configuration: configuration.producer, logger: logger)
        relay = OutboxRelay(
            client: postgres, producer: producer, configuration: configuration.outbox, startGate: startGate, logger: logger)
        metricsListener = MetricsListener(
            host: configuration.metricsHost, port: configuration.metricsPort, registry: registry, logger: logger)
    }

    /// A consumer group member for `topics` that applies each event once with `handler`; events whose producer
    /// is not the topic's owner are dead-lettered unread.
    /// `groupId`: another group than the service's (a rebuild reading every topic from the beginning);
    /// `ledger`: where applied events are marked (`IdempotentProcessor.Ledger`).
    public func makeConsumer(
        topics: [ConsumedTopic], handler: any EventHandler, groupId: String? = nil,
        ledger: IdempotentProcessor.Ledger = .processedEvents
    ) throws -> EventConsumerService {
        // The catalogue is what the broker's ACLs are made from: a reader it does not list would be refused there.
        let service = configuration.identity.name
        if let unlisted = topics.first(where: { $0.readers.map { !$0.contains(service) } ?? false }) {
            throw ConfigError.malformed(
                variable: "TopicCatalogue", value: unlisted.name,
                expected: "\(service) among the topic's consumers in Shared/Events/TopicCatalogue.swift (the ACLs grant only those)")
        }
        var consumerConfiguration = configuration.consumer(topics: topics.map(\.name))
        if let groupId { consumerConfiguration.groupId = groupId }
        consumerConfiguration.expectedPartitions = Dictionary(topics.compactMap { topic in topic.partitions.map { (topic.name, $0) } }) { first, _ in
            first
        }
        let consumer = try KafkaConsumer(configuration: consumerConfiguration, logger: logger)
        let consumerService = EventConsumerService(
            consumer: consumer, processor: IdempotentProcessor(client: postgres, ledger: ledger), handler: handler,
            deadLetters: DeadLetterPublisher(producer: producer, service: configuration.identity.name),
            retryPolicy: configuration.retryPolicy, maxCrashes: configuration.consumerMaxCrashes,
            pollsAhead: configuration.consumerPollsAhead,
            producers: Dictionary(topics.compactMap { topic in topic.producer.map { (topic.name, $0) } }) { first, _ in first },
            startGate: startGate,
            logger: logger)
        consumerHealth.withLock { $0.append(consumerService.health) }
        return consumerService
    }

    /// The accounts this service knows to be erased: the token check's, and the key of what its stores look up.
    public var erasedAccounts: ErasedAccounts { tokenVerifier.erased }

    /// The accounts erased on other replicas, read into this one's token check.
    var erasedAccountsRefresh: ErasedAccountsRefresh {
        ErasedAccountsRefresh(erased: tokenVerifier.erased, client: postgres, interval: .seconds(1), startGate: startGate, logger: logger)
    }

    /// A service's handling of account deletions and merges (`AccountDataOwner`), sharing this replica's token check.
    public func accountLifecycle(_ owner: any AccountDataOwner) -> AccountLifecycleEvents {
        AccountLifecycleEvents(owner: owner, erased: tokenVerifier.erased)
    }

    /// Serves `/metrics` on `METRICS_PORT`, apart from the public listener; runs with the application.
    public let metricsListener: MetricsListener

    /// A router with the JSON error edge, request logging, metrics and `/health`, `/ready`. With
    /// the service's API document, it is served at `/openapi.yaml` and a known path asked with a method it
    /// does not answer gets 405 with `Allow`.
    /// `corsOrigins`: browser origins allowed to call this service from their pages (auth: the dashboard's).
    public func makeRouter(document: OpenAPIDocument? = nil, corsOrigins: [String] = []) -> Router<PlatformRequestContext> {
        let router = Router(context: PlatformRequestContext.self)
        // A span per request, continuing an incoming `traceparent` from trusted callers only; outbox rows written
        // in it carry it on.
        router.add(middleware: EdgeTracingMiddleware(trustedCallers: configuration.traceTrustedCallers))
        if !configuration.trustedProxies.isEmpty {
            router.add(
                middleware: ClientAddressMiddleware(trustedProxies: configuration.trustedProxies, header: configuration.trustedProxyHeader))
        }
        router.add(middleware: JSONErrorMiddleware())
        router.add(middleware: RequestLogMiddleware(.info))
        // Before every access rule: the path they compare is then the path the router matches (X3).
        router.add(middleware: NormalPathMiddleware())
        router.add(middleware: MetricsMiddleware())
        // Before the 405 edge: a preflight (OPTIONS) of an allowed origin is answered here.
        if !corsOrigins.isEmpty {
            router.add(middleware: AllowedOriginsMiddleware(origins: corsOrigins))
        }
        if let document {
            let operational = ["/health", "/ready", "/openapi.yaml"].map { (template: $0, methods: [HTTPRequest.Method.get]) }
            router.add(middleware: MethodNotAllowedMiddleware(routes: document.operations + operational))
            document.addRoute(to: router)
        }
        OperationalRoutes(
            service: configuration.identity.name,
            readiness: ReadinessProbe(
                startGate: startGate, postgres: postgres, producer: producer, relay: relay.health,
                relayStallLimit: configuration.outbox.stallLimit, consumers: { [self] in consumerHealth.withLock { $0 } },
                consumerPauseLimit: configuration.consumerPauseLimit, consumerUnassignedLimit: configuration.consumerUnassignedLimit,
                logger: logger)
        ).add(to: router)
        return router
    }

    /// Work that must finish after the migrations and before the service counts as started (a data import,
    /// say). It runs while the HTTP server is not yet listening; a failure stops the service.
    public typealias StartupTask = @Sendable (PostgresClient, Logger) async throws -> Void

    /// The runnable application. Services start in dependency order and stop in reverse: Postgres, the producer,
    /// the outbox relay, the consumers, then the HTTP server, which opens only after the migrations and
    /// `startupTasks` ran.
    public func makeApplication(
        router: Router<PlatformRequestContext>, consumers: [EventConsumerService] = [], services: [any Service] = [],
        startupTasks: [StartupTask] = []
    ) -> some ApplicationProtocol {
        var app = Application(
            router: router,
            configuration: .init(
                address: .hostname(configuration.httpHost, port: configuration.httpPort),
                serverName: configuration.identity.name),
            services: [metricsListener, postgres, producer, relay, erasedAccountsRefresh] + consumers.map { $0 as any Service } + services,
            // A crash reporter must not keep the port: a service restarted at once binds it again (X4).
            onServerRunning: { _ in SocketsCloseOnExec.markAll() },
            logger: logger)
        let (postgres, startGate, logger, erased) = (self.postgres, self.startGate, self.logger, tokenVerifier.erased)
        let runner = MigrationRunner(schema: configuration.postgres.schema, serviceMigrations: migrations)
        app.beforeServerStarts {
            do {
                try await runner.run(on: postgres, logger: logger)
                // Before the first request: a deleted account's token is refused from the start.
                try await ErasedAccountsStore.refresh(erased, client: postgres, logger: logger)
                for task in startupTasks {
                    try await task(postgres, logger)
                }
                startGate.open()
            } catch {
                startGate.fail()
                logger.critical("migrations or start-up tasks failed", metadata: ["error": "\(String(reflecting: error))"])
                throw error
            }
        }
        return app
    }
}
