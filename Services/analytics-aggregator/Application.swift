import Foundation
import Hummingbird
import Logging
import OpenAPIHummingbird
import PlatformCore
import PlatformHTTP
import PlatformRuntime
import Prometheus

/// Builds analytics-aggregator from its environment: the platform runtime, telemetry ingest (N1), the consumer
/// that keeps the aggregates (N2), the poll (N3), the hotel survey (N4), and the admin dashboard's page, API
/// and live stream (N5). Tests call this same function with test configuration.
package func buildApplication(
    environment: EnvironmentReader, registry: PrometheusCollectorRegistry, logger: Logger
) async throws -> some ApplicationProtocol {
    let runtime = try await PlatformRuntime(
        identity: .analyticsAggregator, environment: environment, migrations: AnalyticsAggregatorMigrations.all, registry: registry, logger: logger)
    let configuration = try AnalyticsConfiguration(environment: environment)
    if configuration.appKeys.isEmpty {
        runtime.logger.warning("TELEMETRY_APP_KEYS is not set: every telemetry batch will be refused")
    }
    let client = runtime.postgres
    let stats = StatsQueries(client: client, exactUsersLimit: configuration.exactUsersLimit, logger: runtime.logger)

    let document = try OpenAPIDocument(in: Bundle.module)
    let access = try document.operationAccess()
    let router = runtime.makeRouter(document: document)
    TelemetryRoute(
        ingest: TelemetryIngest(
            log: KafkaTelemetryLog(producer: runtime.producer, topic: configuration.telemetryTopic),
            naming: PostgresAccountNaming(client: client, erased: runtime.erasedAccounts, logger: runtime.logger),
            rules: TelemetryRules(maxAge: TimeInterval(configuration.maxAgeDays * 86_400), maxSkew: TimeInterval(configuration.maxSkewSeconds)),
            logger: runtime.logger),
        keys: configuration.appKeys,
        perApp: WindowQuota(limit: configuration.eventsPerMinutePerApp),
        perAddress: WindowQuota(limit: configuration.eventsPerMinutePerAddress)
    ).add(to: router)
    try DashboardFiles(bundle: Bundle.module, authBaseURL: configuration.dashboardAuthURL).add(to: router)
    HomeStream(stats: stats, interval: configuration.streamInterval, logger: runtime.logger)
        .add(
            to: runtime.hotRoutes(on: router, token: .required).add(middleware: OperationAccessMiddleware(access)))
    try AnalyticsAPI(
        polls: PollStore(client: client, topic: configuration.telemetryTopic, erased: runtime.erasedAccounts, logger: runtime.logger),
        surveys: SurveyStore(
            client: client, topic: configuration.telemetryTopic, erased: runtime.erasedAccounts,
            coupons: SurveyCoupons(windowDays: configuration.surveyCouponWindowDays),
            logger: runtime.logger),
        stats: stats, cache: StatsAnswers(lifetime: configuration.statsCacheLifetime)
    )
    .registerHandlers(
        on: runtime.apiRoutes(on: router, access: access),
        configuration: .init(dateTranscoder: RFC3339DateTranscoder()))

    let consumer = try runtime.makeConsumer(
        topics: AnalyticsTopics.consumed(configuration),
        handler: AnalyticsTopics.handlers(
            configuration, target: nil, lifecycle: runtime.accountLifecycle(AnalyticsAccountsOwner(erased: runtime.erasedAccounts)),
            erased: runtime.erasedAccounts),
        ledger: .handler)
    let retention = AggregateRetention(
        client: client, writer: AggregateWriter(exactUsersLimit: configuration.exactUsersLimit, erased: runtime.erasedAccounts),
        userKeysDays: configuration.userKeysRetentionDays, appliedIdsDays: configuration.appliedIdsRetentionDays,
        interval: configuration.retentionInterval, startGate: runtime.startGate, logger: runtime.logger)
    let backfill = SurveyReasonBackfill(
        client: client, topic: configuration.telemetryTopic, startGate: runtime.startGate, interval: .seconds(3_600), logger: runtime.logger)
    return runtime.makeApplication(router: router, consumers: [consumer], services: [retention, backfill])
}
