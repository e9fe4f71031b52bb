import Foundation
import HTTPTypes
import PlatformEvents
import PlatformHTTP
import ServiceTestSupport
import Synchronization
import TestSupport
import Testing
import WeatherFetcherFixtures

@testable import WeatherFetcher

/// Refreshing from a real HTTP provider on loopback into Postgres and the broker, and what happens when the
/// provider misbehaves (W3, W6).
@Suite("weather-fetcher: refresh and provider failures")
struct WeatherRefreshTests {
    /// A provider whose behaviour a test switches while the service runs.
    final class ProviderScript: Sendable {
        enum Mode: Sendable {
            case healthy(temperature: Double)
            case status(Int, retryAfter: String?)
            case malformed
            case slow(Duration)
            /// The first `count` requests get 429 with `Retry-After: 1`, then healthy answers.
            case tooManyRequestsFirst(count: Int)
        }

        let mode = Mutex<Mode>(.healthy(temperature: 12.3))
        let served = Mutex(0)

        func set(_ mode: Mode) { self.mode.withLock { $0 = mode } }

        var handler: FakeHTTPServer.Handler {
            { request in
                let number = self.served.withLock { count -> Int in
                    count += 1
                    return count
                }
                switch self.mode.withLock({ $0 }) {
                case .healthy(let temperature):
                    return .init(body: WeatherFixtures.openMeteoAnswer(toQuery: request.query, temperature: temperature))
                case .status(let code, let retryAfter):
                    return .init(status: code, headers: retryAfter.map { ["Retry-After": $0] } ?? [:], body: #"{"error":true,"reason":"down"}"#)
                case .malformed:
                    return .init(body: #"{"latitude": 52.5, "hourly": "#)
                case .slow(let delay):
                    return .init(body: WeatherFixtures.openMeteoAnswer(toQuery: request.query), delay: delay)
                case .tooManyRequestsFirst(let count):
                    if number <= count { return .init(status: 429, headers: ["Retry-After": "1"], body: "") }
                    return .init(body: WeatherFixtures.openMeteoAnswer(toQuery: request.query))
                }
            }
        }
    }

    @Test("W6: the scheduler refreshes tracked cities in one batched request into Postgres and publishes forecast events keyed by city")
    func schedulerRefreshesTrackedCities() async throws {
        // Cities of at least a million people are the map's cities: São Paulo, Sydney, Berlin, San Jose.
        let tracked: Set<Int> = [WeatherFixtures.saoPaulo.id, WeatherFixtures.sydney.id, WeatherFixtures.berlin.id, WeatherFixtures.sanJose.id]
        try await WeatherTestHarness.run(extraEnvironment: ["WEATHER_MAP_MIN_POPULATION": "1000000"]) { weather in
            #expect(try await eventually { try await weather.count("SELECT count(*) FROM city_weather") == 4 })
            let requests = weather.provider.requests
            #expect(requests.count == 1, "four cities fit one Open-Meteo request")
            #expect(requests.first?.query["latitude"]?.split(separator: ",").count == 4)
            #expect(requests.first?.headers["user-agent"]?.contains("weather-fetcher") == true)
            let consumer = try makeConsumer(topics: [weather.forecastsTopic], group: "check-\(uniqueSuffix())", startPosition: .beginning)
            let messages = try await collect(4, from: consumer)
            await consumer.close()
            #expect(Set(messages.compactMap { $0.key.map { Int(String(decoding: $0, as: UTF8.self)) ?? -1 } }) == tracked)
            let event = try EventCoding.decoder.decode(EventEnvelope<ForecastUpdated>.self, from: Data(try #require(messages.first).value))
            #expect(event.type == EventTypes.forecastUpdated && event.producer == "weather-fetcher")
            #expect(event.payload.provider == "open-meteo" && event.payload.hours.count >= 48)
            #expect(String(event.payload.city.id) == event.key)
            // Not due again within the interval: no further requests.
            try await Task.sleep(for: .milliseconds(500))
            #expect(weather.provider.requests.count == 1)
            // Bern (not tracked) is fetched only on demand.
            #expect(try await weather.count("SELECT count(*) FROM city_weather WHERE city_id = \(WeatherFixtures.bern.id)") == 0)
        }
    }

    @Test("W6: a refresh interval later the tracked cities are fetched again; concurrent claims never hand a city to two instances")
    func cadenceAndClaims() async throws {
        try await WeatherTestHarness.run(
            extraEnvironment: ["WEATHER_MAP_MIN_POPULATION": "1000000", "WEATHER_REFRESH_INTERVAL_SECONDS": "2"]
        ) { weather in
            #expect(try await eventually { try await weather.count("SELECT count(*) FROM city_weather") == 4 })
            let firstRound = try await weather.count("SELECT (extract(epoch FROM max(fetched_at)) * 1000)::bigint FROM city_weather")
            // A later round (at least the 2 s interval later) stores newer data for every one of the same cities
            // (no new rows). The margin absorbs the millisecond rounding of `firstRound`.
            #expect(
                try await eventually(timeout: .seconds(20)) {
                    try await weather.count(
                        "SELECT count(*) FROM city_weather WHERE fetched_at > to_timestamp(\(firstRound) / 1000.0) + interval '500 milliseconds'")
                        == 4
                })
            #expect(weather.provider.requests.count >= 2)
            #expect(try await weather.count("SELECT count(*) FROM city_weather") == 4)
            // Two more schedulers (other instances) claim at the same moment as the service's own: each due
            // city goes to one of them at most.
            _ = try await weather.count("UPDATE refresh_state SET attempted_at = now() - interval '1 hour', claimed_until = '-infinity' RETURNING 1")
            let store = WeatherStore(client: weather.db.client, logger: weather.db.logger)
            let claim = { @Sendable in
                try await store.claimDueCities(
                    limit: 100, cadence: .seconds(2), viewedWithin: .seconds(60), mapPopulation: 1_000_000, claimFor: .seconds(60)
                ).map(\.id)
            }
            async let first = claim()
            async let second = claim()
            let (a, b) = try await (first, second)
            #expect(Set(a).isDisjoint(with: Set(b)), "\(a) and \(b)")
            let again = try await claim()
            #expect(again.isEmpty, "claimed cities are not handed out again while the claim lasts")
        }
    }

    @Test("W3: the city weather route fetches on demand and shows current, right-now, hourly to midnight and five days")
    func cityWeatherView() async throws {
        try await WeatherTestHarness.run { weather in
            let (status, body) = try await weather.get("/v1/cities/\(WeatherFixtures.berlin.id)/weather")
            #expect(status == .ok)
            let json = JSONValue(body)
            #expect(json["city"]["name"].string == "Berlin" && json["provider"].string == "open-meteo")
            #expect(json["stale"].bool == false && json["updated"].string == "updated a moment ago")
            #expect(json["current"]["temperature"].string == "12°C" && json["current"]["description"].string == "Partly cloudy")
            #expect(json["rightNow"]["pressure"].string == "1015 mb" && json["rightNow"]["windDirection"].string == "SW")
            #expect(json["rightNow"]["visibility"].string == "6.2 mi" && json["rightNow"]["sunrise"].string == "07:12 AM")
            #expect(json["daily"].count == 5)
            let clock = try #require(LocalClock(identifier: "Europe/Berlin"))
            #expect(json["daily"][0]["date"].string == clock.dayKey(Date()))
            let hours = json["hourly"].array.compactMap { $0["hour"].string }
            let nextHour = clock.hour(Date()) + 1
            #expect(hours.count == max(0, 24 - nextHour), "from the next hour to 11 PM: \(hours)")
            #expect(weather.provider.requests.count == 1)
            // Fresh data is served from Postgres without asking the provider again.
            _ = try await weather.get("/v1/cities/\(WeatherFixtures.berlin.id)/weather")
            #expect(weather.provider.requests.count == 1)
        }
    }

    @Test("W3, X3: views needing the provider count per client address; past ON_DEMAND_REFRESHES_PER_MINUTE_PER_ADDRESS a city without data is 429")
    func onDemandRefreshesPerAddress() async throws {
        let environment = ["ON_DEMAND_REFRESHES_PER_MINUTE_PER_ADDRESS": "1", "TRUSTED_PROXIES": "127.0.0.1, ::1"]
        try await WeatherTestHarness.run(extraEnvironment: environment) { weather in
            let (berlin, bern) = (WeatherFixtures.berlin.id, WeatherFixtures.bern.id)
            var status = try await Self.view(berlin, from: "203.0.113.7", on: weather)
            #expect(status == .ok)
            status = try await Self.view(berlin, from: "203.0.113.7", on: weather)
            #expect(status == .ok)  // fresh data spends nothing
            status = try await Self.view(bern, from: "203.0.113.7", on: weather)
            #expect(status == .tooManyRequests)
            // Sharing the city's weather needs the same refresh, out of the same share.
            status = try await weather.request(
                .get, "/v1/cities/\(bern)/share?kind=home", headers: [HTTPField.Name("X-Forwarded-For")!: "203.0.113.7"]
            ).0
            #expect(status == .tooManyRequests)
            #expect(weather.provider.requests.count == 1)
            status = try await Self.view(bern, from: "198.51.100.4", on: weather)
            #expect(status == .ok)  // another address has its own
            #expect(weather.provider.requests.count == 2)
        }
    }

    /// A city's weather view, as a trusted proxy forwards it from `client`.
    static func view(_ city: Int, from client: String, on weather: WeatherTestHarness) async throws -> HTTPResponse.Status {
        try await weather.request(.get, "/v1/cities/\(city)/weather", headers: [HTTPField.Name("X-Forwarded-For")!: client]).0
    }

    @Test("W6: 500 answers, malformed JSON and timeouts leave the last known data served, marked stale; no crash")
    func providerFailuresServeStaleData() async throws {
        let script = ProviderScript()
        try await WeatherTestHarness.run(
            extraEnvironment: [
                // A timeout generous enough for a loaded machine, and a slow answer well past it.
                "WEATHER_REFRESH_INTERVAL_SECONDS": "1", "WEATHER_FAILURE_RETRY_SECONDS": "1", "WEATHER_PROVIDER_TIMEOUT_MS": "1500",
                "WEATHER_PROVIDER_MAX_ATTEMPTS": "2", "WEATHER_CIRCUIT_FAILURES": "100",
            ],
            provider: script.handler
        ) { weather in
            let path = "/v1/cities/\(WeatherFixtures.berlin.id)/weather"
            var (status, body) = try await weather.get(path)
            #expect(status == .ok && JSONValue(body)["stale"].bool == false)
            for mode in [ProviderScript.Mode.status(500, retryAfter: nil), .malformed, .slow(.seconds(4))] {
                let label = String(describing: mode)
                script.set(mode)
                try await Task.sleep(for: .milliseconds(2_100))  // past the interval and the failure retry
                (status, body) = try await weather.get(path)
                let json = JSONValue(body)
                let stale = json["stale"].bool
                let temperature = json["current"]["temperature"].string
                #expect(status == .ok, Comment(rawValue: label))
                #expect(stale == true, Comment(rawValue: label))
                #expect(temperature == "12°C")
                let error = try await weather.lastError(cityId: WeatherFixtures.berlin.id)
                #expect(error != nil, Comment(rawValue: label))
            }
            script.set(.healthy(temperature: 20))
            try await Task.sleep(for: .milliseconds(1_100))
            (_, body) = try await weather.get(path)
            #expect(JSONValue(body)["stale"].bool == false && JSONValue(body)["current"]["temperature"].string == "20°C")
        }
    }

    @Test("W6: a 429 with Retry-After is retried no sooner than asked, then succeeds")
    func retryAfterHonoured() async throws {
        let script = ProviderScript()
        script.set(.tooManyRequestsFirst(count: 1))
        try await WeatherTestHarness.run(
            extraEnvironment: ["WEATHER_PROVIDER_MAX_BACKOFF_MS": "5000"], provider: script.handler
        ) { weather in
            let started = ContinuousClock.now
            let (status, _) = try await weather.get("/v1/cities/\(WeatherFixtures.bern.id)/weather")
            let took = ContinuousClock.now - started
            #expect(status == .ok)
            #expect(took >= .milliseconds(950), "the retry waited for Retry-After: 1 (took \(took))")
            #expect(weather.provider.requests.count == 2)
        }
    }

    @Test("W6: with no data yet and the provider down, the answer is a 503 JSON error with Retry-After; the circuit then stops calling")
    func noDataAndProviderDown() async throws {
        let script = ProviderScript()
        script.set(.status(503, retryAfter: nil))
        try await WeatherTestHarness.run(
            extraEnvironment: ["WEATHER_CIRCUIT_FAILURES": "2", "WEATHER_PROVIDER_MAX_ATTEMPTS": "2", "WEATHER_FAILURE_RETRY_SECONDS": "1"],
            provider: script.handler
        ) { weather in
            for city in [WeatherFixtures.bern, WeatherFixtures.bergen, WeatherFixtures.lodz] {
                let (status, body) = try await weather.get("/v1/cities/\(city.id)/weather")
                #expect(status == .serviceUnavailable && JSONValue(body)["error"]["code"].string == "weather_unavailable")
            }
            // Two failed fetches (two attempts each) opened the circuit: the third city cost no request.
            #expect(weather.provider.requests.count == 4)
        }
    }

    @Test("W6: WorldWeatherOnline as the provider: one city per request, the key from configuration, data stored")
    func worldWeatherOnlineProvider() async throws {
        let clock = try #require(LocalClock(identifier: "Europe/Berlin"))
        let today = clock.dayKey(Date())
        let tomorrow = clock.dayKey(Date().addingTimeInterval(86_400))
        try await WeatherTestHarness.run(
            extraEnvironment: ["WEATHER_PROVIDER": "worldweatheronline", "WWO_API_KEY": "secret-test-key", "WEATHER_MAP_MIN_POPULATION": "3000000"],
            provider: { _ in .init(body: WeatherFixtures.worldWeatherOnlineAnswer(today: today, tomorrow: tomorrow)) }
        ) { weather in
            // Berlin, São Paulo and Sydney are above three million: three requests.
            #expect(try await eventually { try await weather.count("SELECT count(*) FROM city_weather") == 3 })
            let requests = weather.provider.requests
            // One city per request; a request the loaded machine timed out is retried, so count cities, not requests.
            #expect(Set(requests.compactMap { $0.query["q"] }).count == 3, "\(requests.map { $0.query["q"] ?? "?" })")
            #expect(requests.allSatisfy { $0.query["q"]?.split(separator: ",").count == 2 })
            #expect(requests.allSatisfy { $0.path == "/premium/v1/weather.ashx" && $0.query["key"] == "secret-test-key" })
            let (status, body) = try await weather.get("/v1/cities/\(WeatherFixtures.berlin.id)/weather")
            #expect(status == .ok && JSONValue(body)["provider"].string == "worldweatheronline")
            #expect(JSONValue(body)["current"]["description"].string == "Overcast")
        }
    }
}

extension WeatherTestHarness {
    func lastError(cityId: Int) async throws -> String? {
        let rows = try await db.client.query("SELECT last_error FROM refresh_state WHERE city_id = \(cityId)", logger: db.logger)
        for try await error in rows.decode(String?.self) { return error }
        return nil
    }
}

@Suite("weather-fetcher: the anonymous city weather cache")
struct WeatherViewCacheTests {
    @Test("W3: a city's answer is reused within its TTL, by anonymous and signed-in callers; the signed-in view is still recorded")
    func viewCache() async throws {
        try await WeatherTestHarness.run(extraEnvironment: ["WEATHER_VIEW_CACHE_MS": "60000"]) { weather in
            let path = "/v1/cities/\(WeatherFixtures.bern.id)/weather"
            // An entry never outlives its wall-clock minute: the whole test must fit in one.
            try await waitForRoomInTheMinute()
            let before = currentMinute()
            let (first, _) = try await weather.get(path)
            #expect(first == .ok && weather.provider.requests.count == 1)
            _ = try await weather.count("DELETE FROM city_weather RETURNING 1")
            let user = try await weather.token()
            let (second, anonymous) = try await weather.get(path)
            let (third, personal) = try await weather.get(path, bearer: user)
            #expect(second == .ok && third == .ok)
            #expect(currentMinute() == before, "the test ran within one minute")
            #expect(JSONValue(anonymous)["city"]["name"].string == "Bern" && JSONValue(anonymous)["isFavourite"].raw == nil)
            #expect(JSONValue(personal)["isFavourite"].bool == false, "the caller's own part is added to the cached answer")
            #expect(weather.provider.requests.count == 1, "both served from the cache")
            // The view is written with others in a batch; the user's own read of their recents writes it at once.
            let (_, recents) = try await weather.get("/v1/me/recent-cities", bearer: user)
            #expect(JSONValue(recents)["cities"].array.compactMap { $0["city"]["id"].int } == [WeatherFixtures.bern.id])
            #expect(try await weather.count("SELECT count(*) FROM recent_cities") == 1)
        }
    }
}
