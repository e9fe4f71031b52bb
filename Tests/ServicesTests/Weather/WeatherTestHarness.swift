import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import Prometheus
import Shared
import Testing
import TestSupport

@testable import WeatherFetcher

/// Runs the real weather-fetcher (its own buildApplication) on a fresh database with the test catalogue,
/// its own forecast and warning topics on the real broker, and a fake provider on loopback.
struct WeatherTestHarness: Sendable {
    let client: any TestClientProtocol
    let db: TestDatabase
    let tokens: TestTokens
    let provider: FakeHTTPServer
    let forecastsTopic: String
    let warningsTopic: String
    let userCitiesTopic: String

    /// `provider` answers the fake's requests; by default like Open-Meteo, from the request's own coordinates.
    static func run(
        extraEnvironment: [String: String] = [:],
        provider handler: @escaping FakeHTTPServer.Handler = { .init(body: WeatherFixtures.openMeteoAnswer(toQuery: $0.query)) },
        tokens: TestTokens? = nil,
        _ body: @Sendable (WeatherTestHarness) async throws -> Void
    ) async throws {
        let tokens = try tokens ?? TestTokens()
        let catalogue = try WeatherFixtures.writeCatalogue()
        defer { try? FileManager.default.removeItem(atPath: catalogue) }
        let suffix = uniqueSuffix()
        let forecasts = "test.forecasts.\(suffix)"
        let warnings = "test.warnings.\(suffix)"
        let userCities = "test.user-cities.\(suffix)"
        try await createTopics([forecasts, warnings, userCities], partitions: 2, brokers: TestInfrastructure.current.kafkaBrokers)
        try await createTopics(["test.users.\(suffix)"], partitions: 2, brokers: TestInfrastructure.current.kafkaBrokers)
        try await withFakeHTTPServer(handler) { fake in
            try await withTestDatabase(schema: "weather_fetcher", migrations: weatherFetcherMigrations) { db in
                let environment = EnvironmentReader([
                    "HTTP_PORT": "0",
                    "POSTGRES_HOST": db.configuration.host, "POSTGRES_PORT": "\(db.configuration.port)",
                    "POSTGRES_USER": db.configuration.username, "POSTGRES_DATABASE": db.configuration.database,
                    "KAFKA_BROKERS": TestInfrastructure.current.kafkaBrokers, "KAFKA_GROUP_ID": "weather-\(suffix)",
                    "KAFKA_START_POSITION": "beginning", "OUTBOX_IDLE_INTERVAL_MS": "20",
                    "AUTH_PUBLIC_KEY": tokens.publicKeyBase64URL,
                    "WEATHER_CITY_CATALOGUE": catalogue, "WEATHER_FORECASTS_TOPIC": forecasts, "WEATHER_WARNINGS_TOPIC": warnings,
                    "WEATHER_USER_CITIES_TOPIC": userCities, "WEATHER_USERS_TOPIC": "test.users.\(suffix)",
                    "OPEN_METEO_BASE_URL": fake.baseURL, "WWO_BASE_URL": fake.baseURL,
                    // Nothing is scheduled unless a test says so: the map threshold is above every test city.
                    "WEATHER_MAP_MIN_POPULATION": "100000000", "WEATHER_REFRESH_TICK_MS": "100",
                    // Long enough that a loaded machine does not time the fake out (and retry): tests of timeouts set their own.
                    "WEATHER_PROVIDER_TIMEOUT_MS": "5000", "WEATHER_PROVIDER_BACKOFF_MS": "10",
                    "WEATHER_PROVIDER_MAX_BACKOFF_MS": "200", "WEATHER_PROVIDER_REQUESTS_PER_SECOND": "1000",
                    "WEATHER_VIEW_CACHE_MS": "0",
                    // The fuzzer searches thousands of times from one address; the quota test sets its own.
                    "CITY_SEARCHES_PER_MINUTE_PER_ADDRESS": "1000000",
                    "LOG_LEVEL": ProcessInfo.processInfo.environment["WEATHER_TEST_LOG_LEVEL"] ?? "warning",
                ].merging(extraEnvironment) { $1 })
                let app = try await buildApplication(
                    environment: environment, registry: PrometheusCollectorRegistry(), logger: Logger(label: "weather-test"))
                try await app.test(.live) { client in
                    try await body(
                        WeatherTestHarness(
                            client: client, db: db, tokens: tokens, provider: fake, forecastsTopic: forecasts, warningsTopic: warnings,
                            userCitiesTopic: userCities))
                }
            }
        }
    }

    func token(user: String = UUID().uuidString) async throws -> String {
        try await tokens.token(userId: user)
    }

    func get(_ path: String, bearer: String? = nil) async throws -> (HTTPResponse.Status, Any) {
        try await request(.get, path, bearer: bearer)
    }

    func request(_ method: HTTPRequest.Method, _ path: String, bearer: String? = nil) async throws -> (HTTPResponse.Status, Any) {
        var headers: HTTPFields = [:]
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        return try await client.execute(uri: path, method: method, headers: headers) { response in
            let text = String(buffer: response.body)
            return (response.status, (try? JSONSerialization.jsonObject(with: Data(text.utf8))) ?? text)
        }
    }

    /// How many rows `sql` counts.
    func count(_ sql: String) async throws -> Int {
        let rows = try await db.client.query(PostgresQuery(unsafeSQL: sql), logger: db.logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }
}

/// Loose access into decoded JSON: `json["city"]["name"].string`.
struct JSONValue {
    let raw: Any?
    init(_ raw: Any?) { self.raw = raw }
    subscript(key: String) -> JSONValue { JSONValue((raw as? [String: Any])?[key]) }
    subscript(index: Int) -> JSONValue {
        guard let array = raw as? [Any], array.indices.contains(index) else { return JSONValue(nil) }
        return JSONValue(array[index])
    }
    var string: String? { raw as? String }
    var int: Int? { (raw as? NSNumber)?.intValue }
    var double: Double? { (raw as? NSNumber)?.doubleValue }
    var bool: Bool? { (raw as? NSNumber).map(\.boolValue) }
    var array: [JSONValue] { ((raw as? [Any]) ?? []).map(JSONValue.init) }
    var count: Int { (raw as? [Any])?.count ?? 0 }
}
