import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOSSL
import OpenAPIHummingbird
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformPostgres
import PlatformRuntime
import Prometheus
import ServiceLifecycle

/// Builds warning-detector from its environment: the platform runtime, the consumer of forecast and
/// favourite events that turns forecasts into warnings (A1, A2), the push sender and the daily-forecast
/// scheduler (A5), and the HTTP API for warnings, settings, devices and news (A2-A6).
/// Tests call this same function with test configuration.
package func buildApplication(
    environment: EnvironmentReader, registry: PrometheusCollectorRegistry, logger: Logger
) async throws -> some ApplicationProtocol {
    let runtime = try await PlatformRuntime(
        identity: .warningDetector, environment: environment, migrations: WarningDetectorMigrations.all, registry: registry, logger: logger)
    let configuration = try WarningConfiguration(environment: environment)
    let client = runtime.postgres
    let warnings = WarningStore(client: client, logger: runtime.logger, topic: configuration.warningsTopic)
    let users = UserStore(client: client, logger: runtime.logger, devicesPerAccount: configuration.devicesPerAccount)
    let queue = PushQueue(client: client, logger: runtime.logger)

    let document = try OpenAPIDocument(in: Bundle.module)
    let access = try document.operationAccess()
    let router = runtime.makeRouter(document: document)
    let news = NewsStore(client: client, logger: runtime.logger)
    // Public routes take a token when it comes (a bad one is refused); the /v1/me and admin operations require one.
    try WarningAPI(
        warnings: warnings, users: users, queue: queue, news: news, publish: PublishNews(news: news),
        changeSettings: ChangeNotificationSettings(settings: users), register: RegisterDevice(devices: users),
        unregister: UnregisterDevice(devices: users)
    )
    .registerHandlers(
        on: runtime.apiRoutes(on: router, access: access))

    let consumer = try runtime.makeConsumer(
        topics: [
            ConsumedTopic(TopicCatalogue.forecasts, name: configuration.forecastsTopic),
            ConsumedTopic(TopicCatalogue.userCities, name: configuration.userCitiesTopic),
            ConsumedTopic(TopicCatalogue.appointments, name: configuration.appointmentsTopic),
            ConsumedTopic(TopicCatalogue.users, name: configuration.usersTopic),
        ],
        handler: AccountEventsRouter(
            lifecycle: runtime.accountLifecycle(PushAudienceOwner()),
            next: ConsumedTopics.handlers(
                detector: WarningDetector(rules: configuration.rules, horizon: configuration.horizon), warnings: warnings,
                erased: runtime.erasedAccounts)))
    let (http, apns) = try await makePushClient(configuration.push)
    var services: [any Service] = [
        PushSender(queue: queue, apns: apns, policy: configuration.push, startGate: runtime.startGate, logger: runtime.logger)
    ]
    if configuration.dailyEnabled {
        services.append(
            DailyForecastScheduler(
                client: client, queue: queue, tick: configuration.dailyTick, window: configuration.dailyWindow,
                startGate: runtime.startGate, logger: runtime.logger))
    }
    if let http { services.append(HTTPClientService(client: http)) }
    return runtime.makeApplication(router: router, consumers: [consumer], services: services)
}

/// An APNs client per app whose key is configured, each under the app's own topic. TLS trusts the system roots
/// plus `PUSH_CA_FILE`.
func makePushClient(_ push: PushConfiguration) async throws -> (HTTPClient?, [PushApp: APNsClient]) {
    guard push.credentialsComplete else { return (nil, [:]) }
    var tls = TLSConfiguration.makeClientConfiguration()
    if let caFile = push.caFile { tls.additionalTrustRoots = [.file(caFile)] }
    let http = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: .init(tlsConfiguration: tls, timeout: .init(connect: .seconds(10))))
    var clients: [PushApp: APNsClient] = [:]
    for (app, key) in push.credentials {
        let signer = try await ProviderTokenSigner(teamId: key.teamId, keyId: key.keyId, signingKeyPEM: key.signingKey.value)
        clients[app] = APNsClient(
            http: http, baseURL: push.baseURL, topic: push.topics[app] ?? app.defaultTopic, signer: signer, timeout: .seconds(30))
    }
    return (http, clients)
}
