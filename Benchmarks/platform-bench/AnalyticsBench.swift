import AsyncHTTPClient
import Foundation
import Logging
import PlatformEvents
import PlatformHTTP
import PlatformKafka
import PlatformPostgres
import PostgresNIO
import TestSupport

/// analytics-aggregator measured as it runs: the release binary on throw-away Postgres and the broker.
/// - ingest: wrk POSTs one batch of 100 telemetry events (with the app key) for `loadSeconds`; events/s is
///   requests/s × 100, each answered after the broker acknowledged the batch.
/// - aggregation: `events` telemetry events put on the topic first, then the service started; events/s from
///   the first aggregated event to the last.
/// - queries: the aggregates the size `largeEvents` events make (made with SQL, not through the pipeline: a
///   year of downloads per app and platform, 5,000 features, 20,000 cities), then wrk with admin tokens on the
///   top-features page and the home page, next to `/health` of the same process.
struct AnalyticsBench: ServiceBench {
    let binary: String
    let brokers: String
    let postgresHost: String
    let postgresPort: Int
    let postgresUser: String
    let events: Int
    let largeEvents: Int
    let loadSeconds: Int
    let connections: Int

    static let appKey = "bench-weather-key-000001"

    struct Results: Sendable {
        var ingest: LoadResult?
        var aggregationPerSecond = 0.0
        /// With the answer cache (`STATS_CACHE_MS`, 500 ms), `connections` at once.
        var topFeatures: LoadResult?
        var home: LoadResult?
        var health: LoadResult?
        /// Without the cache (`STATS_CACHE_MS=0`): at `connections` at once, and one at a time.
        var uncached: [(features: LoadResult, home: LoadResult, connections: Int)] = []
    }

    func run() async throws -> Results {
        let logger = Logger(label: "bench")
        let databases = DatabaseServer(host: postgresHost, port: postgresPort, user: postgresUser)
        let database = try await databases.createDatabase(prefix: "bench_analytics")
        let topics = ServiceTopics(
            ["ANALYTICS_TELEMETRY_TOPIC": "telemetry", "ANALYTICS_USERS_TOPIC": "users", "ANALYTICS_USER_CITIES_TOPIC": "cities"],
            prefix: "bench")
        try await topics.create(partitions: 6, brokers: brokers)

        progress("analytics: putting \(events) telemetry events on the topic")
        try await produceTelemetry(topic: topics["ANALYTICS_TELEMETRY_TOPIC"])

        let tokens = try TestTokens()
        let port = freePort()
        let environment = serviceEnvironment(database: database, tokens: tokens).variables(topics.byVariable).merging([
            "TELEMETRY_APP_KEYS": "weather=\(Self.appKey)",
            // The load comes from one address with one key: the write quotas would answer it 429 after a few batches.
            "TELEMETRY_EVENTS_PER_MINUTE_PER_ADDRESS": "10000000", "TELEMETRY_EVENTS_PER_MINUTE_PER_APP": "100000000",
            "KAFKA_START_POSITION": "beginning", "LOG_LEVEL": "warning",
        ]) { $1 }
        let service = try startService(binary: binary, environment: environment.merging(["HTTP_PORT": "\(port)"]) { $1 })
        defer { service.stop() }
        try await service.waitReady(port: port)
        let client = databases.configuration(database: database, schema: "analytics_aggregator").makeClient(logger: logger)
        let results = try await withRunningClient(client) { client -> Results in
            var results = Results()
            progress("analytics: aggregating them")
            results.aggregationPerSecond = try await measureAggregation(client)
            let base = "http://127.0.0.1:\(port)"
            progress("wrk: \(loadSeconds) s of batches of 100 events into the topic")
            results.ingest = try LoadResult.wrk(
                url: "\(base)/v1/telemetry", seconds: loadSeconds, connections: connections,
                post: (Self.batch(), ["X-App-Key": Self.appKey]))
            progress("analytics: making the aggregates of \(largeEvents) events with SQL")
            try await makeLargeAggregates(client)
            var adminTokens: [String] = []
            for _ in 0..<20 { adminTokens.append(try await tokens.token(userId: UUID().uuidString, role: .admin)) }
            progress("wrk: \(loadSeconds) s each on the top features, the home page and /health")
            results.topFeatures = try LoadResult.wrk(
                url: "\(base)/v1/admin/stats/features?pageSize=15", seconds: loadSeconds, connections: connections, bearerTokens: adminTokens)
            results.home = try LoadResult.wrk(
                url: "\(base)/v1/admin/stats/home", seconds: loadSeconds, connections: connections, bearerTokens: adminTokens)
            results.health = try LoadResult.wrk(url: "\(base)/health", seconds: loadSeconds, connections: connections)
            return results
        }
        service.stop()
        // The same pages without the answer cache: every request runs its queries.
        var measured = results
        let uncachedPort = freePort()
        let uncached = try startService(
            binary: binary, environment: environment.merging(["HTTP_PORT": "\(uncachedPort)", "STATS_CACHE_MS": "0"]) { $1 })
        defer { uncached.stop() }
        try await uncached.waitReady(port: uncachedPort)
        var adminTokens: [String] = []
        for _ in 0..<20 { adminTokens.append(try await tokens.token(userId: UUID().uuidString, role: .admin)) }
        for load in [connections, 1] {
            progress("wrk: \(loadSeconds) s each on the top features and the home page without the cache, \(load) connection(s)")
            let base = "http://127.0.0.1:\(uncachedPort)"
            let features = try LoadResult.wrk(
                url: "\(base)/v1/admin/stats/features?pageSize=15", seconds: loadSeconds, connections: load, bearerTokens: adminTokens)
            let home = try LoadResult.wrk(url: "\(base)/v1/admin/stats/home", seconds: loadSeconds, connections: load, bearerTokens: adminTokens)
            measured.uncached.append((features, home, load))
        }
        uncached.stop()
        try await databases.dropDatabase(database)
        return measured
    }

    /// 60% feature uses (200 features, 50,000 users), 20% installs, 20% city views, over the last 30 days.
    func produceTelemetry(topic: String) async throws {
        let encoder = EventCoding.encoder
        let now = Date()
        try await withProducer(brokers: brokers) { producer in
            var batch: [KafkaOutgoingMessage] = []
            for index in 0..<events {
                let user = "user-\(index % 50_000)"
                var event = TelemetryRecorded(app: .weather, clientEventId: UUID(), kind: .featureUsed, deviceId: user)
                switch index % 5 {
                case 0: (event.kind, event.platform, event.appVersion) = (.install, [.ios, .android, .web][index % 3], "1.0")
                case 1: (event.kind, event.cityId) = (.cityViewed, 1 + index % 5_000)
                default: event.feature = "feature-\(index % 200)"
                }
                let envelope = EventEnvelope(
                    type: EventTypes.telemetryRecorded, occurredAt: now.addingTimeInterval(-Double(index % 30) * 86_400),
                    producer: ServiceIdentity.analyticsAggregator.name, key: event.userKey, payload: event)
                batch.append(KafkaOutgoingMessage(topic: topic, key: event.userKey, value: Array(try encoder.encode(envelope))))
                if batch.count == 5_000 {
                    try await producer.send(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try await producer.send(batch)
        }
    }

    func measureAggregation(_ client: PostgresClient) async throws -> Double {
        let deadline = ContinuousClock.now + .seconds(600)
        var started: ContinuousClock.Instant?
        var first = 0
        while ContinuousClock.now < deadline {
            let applied = try await queryInt(client, "SELECT count(*)::bigint FROM applied_events")
            if started == nil, applied > 0 {
                started = .now
                first = applied
            }
            if applied >= events, let started {
                return Double(applied - first) / (ContinuousClock.now - started).seconds
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BenchError("the aggregates did not count \(events) events in 10 minutes")
    }

    /// What `largeEvents` events leave in the aggregates: a year of daily downloads for 4 apps × 3 platforms,
    /// 5,000 features (users in a long tail, the top 50 past the exact limit with sketches), 20,000 cities,
    /// the poll and the survey.
    func makeLargeAggregates(_ client: PostgresClient) async throws {
        let sketch = "decode(repeat('05', 4096), 'hex')"
        for statement in [
            """
            INSERT INTO downloads_daily (generation, day, app, platform, downloads)
            SELECT 1, current_date - d, a, p, \(largeEvents / 5 / (365 * 12)) FROM generate_series(0, 364) d,
                unnest(ARRAY['weather','places','horoscope','survey']) a, unnest(ARRAY['ios','android','web']) p
            ON CONFLICT DO NOTHING
            """,
            """
            INSERT INTO features (generation, app, feature, users, uses, sketch)
            SELECT 1, (ARRAY['weather','places','horoscope','survey'])[1 + f % 4], 'feature-' || f, \(largeEvents / 10) / (f + 1),
                \(largeEvents * 6 / 10) / (f + 1), CASE WHEN f < 50 THEN \(sketch) END
            FROM generate_series(0, 4999) f ON CONFLICT DO NOTHING
            """,
            """
            INSERT INTO city_views (generation, city_id, views, name)
            SELECT 1, c, \(largeEvents / 5) / c, 'City ' || c FROM generate_series(1, 20000) c ON CONFLICT DO NOTHING
            """,
            "INSERT INTO poll_results VALUES (1, 'benefit', 70000, 30000), (1, 'awareness', 55000, 45000) ON CONFLICT DO NOTHING",
            "ANALYZE",
        ] {
            try await client.query(PostgresQuery(unsafeSQL: statement), logger: Logger(label: "bench"))
        }
    }

    /// One batch of 100 events of every kind, as an app sends it.
    static func batch() -> String {
        let now = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        let events = (0..<100).map { index -> String in
            let common = #""id":"\#(UUID().uuidString)","occurredAt":"\#(now)","deviceId":"device-\#(index)""#
            switch index % 4 {
            case 0: return #"{\#(common),"kind":"install","platform":"ios","appVersion":"1.0"}"#
            case 1: return #"{\#(common),"kind":"city_viewed","cityId":\#(1 + index)}"#
            case 2: return #"{\#(common),"kind":"screen_viewed","screen":"home"}"#
            default: return #"{\#(common),"kind":"feature_used","feature":"feature-\#(index)"}"#
            }
        }
        return #"{"events":[\#(events.joined(separator: ","))]}"#
    }
}
