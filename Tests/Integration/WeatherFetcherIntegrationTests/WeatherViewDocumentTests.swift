import Foundation
import ServiceTestSupport
import TestSupport
import Testing
import WeatherFetcherFixtures

@testable import WeatherFetcher

/// weather-fetcher's hand-registered city view against its document (X3): decoded with the generated type.
/// Schemathesis runs in `FuzzedContractTests`.
@Suite("weather-fetcher: the city view as documented")
struct WeatherViewDocumentTests {
    @Test("X3: the city weather view, hand-registered for speed, decodes as the document's CityWeather")
    func viewMatchesTheDocument() async throws {
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
}
