import Foundation
import TestSupport
import Testing
import WeatherFetcherFixtures

@testable import WeatherFetcher

/// weather-fetcher against its own document (X3): the hand-registered view decoded with
/// the generated type, and Schemathesis with no token and with a
/// user's token, every check on.
@Suite("weather-fetcher: API contract", .serialized)
struct WeatherContractTests {
    @Test("X3: the city weather view, hand-registered for speed, decodes as the document's CityWeather")
    func test_X3_viewMatchesTheDocument() async throws {
        try await WeatherTestHarness.run { weather in
            let user = try await weather.token()
            let (status, body) = try await weather.client.execute(
                uri: "/v1/cities/\(WeatherFixtures.berlin.id)/weather", method: .get, headers: [.authorization: "Bearer \(user)"]
            ) { ($0.status, Data(buffer: $0.body)) }
            #expect(status == .ok)
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let view = try decoder.decode(Components.Schemas.CityWeather.self, from: body)
            #expect(view.city.id == WeatherFixtures.berlin.id && view.isFavourite == false)
        }
    }

    @Test("X3: Schemathesis finds no failure anonymously and with a user's token", arguments: [false, true])
    func test_X3_fuzzed(signedIn: Bool) async throws {
        try await WeatherTestHarness.run { weather in
            let token = signedIn ? try await weather.token() : nil
            let outcome = try await Schemathesis.run(baseURL: "http://127.0.0.1:\(weather.client.port ?? 0)", bearer: token)
            #expect(outcome.exitCode == 0, "\(outcome.output)")
        }
    }
}
