import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import Prometheus
import TestSupport
import Testing
import WeatherFetcher
import WeatherFetcherFixtures

/// Runs the real weather-fetcher (its own buildApplication) on a fresh database with the test catalogue,
/// its own forecast and warning topics on the real broker, and a fake provider on loopback.
package struct WeatherTestHarness: ServiceHarnessing {
    package let core: ServiceHarness
    package let provider: FakeHTTPServer
    package var forecastsTopic: String { topics["WEATHER_FORECASTS_TOPIC"] }
    package var warningsTopic: String { topics["WEATHER_WARNINGS_TOPIC"] }
    package var userCitiesTopic: String { topics["WEATHER_USER_CITIES_TOPIC"] }

    /// `provider` answers the fake's requests; by default like Open-Meteo, from the request's own coordinates.
    package static func run(
        extraEnvironment: [String: String] = [:],
        provider handler: @escaping FakeHTTPServer.Handler = { .init(body: WeatherFixtures.openMeteoAnswer(toQuery: $0.query)) },
        tokens: TestTokens? = nil,
        _ body: @Sendable (WeatherTestHarness) async throws -> Void
    ) async throws {
        let tokens = try tokens ?? TestTokens()
        let catalogue = try WeatherFixtures.writeCatalogue()
        defer { try? FileManager.default.removeItem(atPath: catalogue) }
        let topics = ServiceTopics([
            "WEATHER_FORECASTS_TOPIC": "forecasts", "WEATHER_WARNINGS_TOPIC": "warnings",
            "WEATHER_USER_CITIES_TOPIC": "user-cities", "WEATHER_USERS_TOPIC": "users",
        ])
        try await withFakeHTTPServer(handler) { fake in
            let environment = [
                "WEATHER_CITY_CATALOGUE": catalogue,
                "OPEN_METEO_BASE_URL": fake.baseURL, "WWO_BASE_URL": fake.baseURL,
                // Nothing is scheduled unless a test says so: the map threshold is above every test city.
                "WEATHER_MAP_MIN_POPULATION": "100000000", "WEATHER_REFRESH_TICK_MS": "100",
                // Long enough that a loaded machine does not time the fake out (and retry): tests of timeouts set their own.
                "WEATHER_PROVIDER_TIMEOUT_MS": "5000", "WEATHER_PROVIDER_BACKOFF_MS": "10",
                "WEATHER_PROVIDER_MAX_BACKOFF_MS": "200", "WEATHER_PROVIDER_REQUESTS_PER_SECOND": "1000",
                "WEATHER_VIEW_CACHE_MS": "0",
                // The fuzzer searches thousands of times from one address; the quota test sets its own.
                "CITY_SEARCHES_PER_MINUTE_PER_ADDRESS": "1000000",
            ]
            try await ServiceHarness.run(
                .weatherFetcher, topics: topics, tokens: tokens, environment: environment, extra: extraEnvironment
            ) { core in
                try await body(WeatherTestHarness(core: core, provider: fake))
            }
        }
    }

    package func token(user: String = UUID().uuidString) async throws -> String {
        try await tokens.token(userId: user)
    }

    package func get(_ path: String, bearer: String? = nil) async throws -> (HTTPResponse.Status, Any) {
        try await request(.get, path, bearer: bearer)
    }

    package func request(
        _ method: HTTPRequest.Method, _ path: String, bearer: String? = nil, headers extra: HTTPFields = [:]
    ) async throws -> (HTTPResponse.Status, Any) {
        var headers = extra
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        return try await client.execute(uri: path, method: method, headers: headers) { response in
            let text = String(buffer: response.body)
            return (response.status, JSONValue(parsing: text).raw ?? text)
        }
    }
}
