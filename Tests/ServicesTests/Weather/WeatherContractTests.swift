import Foundation
import Shared
import TestSupport
import Testing
import WeatherFetcherFixtures

@testable import WeatherFetcher

/// weather-fetcher against its own document (X3): served byte for byte, the hand-registered view decoded with
/// the generated type, every condition symbol in the document, and Schemathesis with no token and with a
/// user's token, every check on.
@Suite("weather-fetcher: API contract", .serialized)
struct WeatherContractTests {
    static let documentPath = RepositoryFiles.openAPIDocument(of: "weather-fetcher")

    @Test("X3: /openapi.yaml is the checked-in openapi.yaml; the city weather view decodes as the document's CityWeather; 405 with Allow")
    func test_X3_servedDocumentAndView() async throws {
        try await WeatherTestHarness.run { weather in
            let served = try await weather.client.execute(uri: "/openapi.yaml", method: .get) { Array(buffer: $0.body) }
            #expect(served == Array(try Data(contentsOf: Self.documentPath)))
            let user = try await weather.token()
            let (status, body) = try await weather.client.execute(
                uri: "/v1/cities/\(WeatherFixtures.berlin.id)/weather", method: .get, headers: [.authorization: "Bearer \(user)"]
            ) { ($0.status, Data(buffer: $0.body)) }
            #expect(status == .ok)
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let view = try decoder.decode(Components.Schemas.CityWeather.self, from: body)
            #expect(view.city.id == WeatherFixtures.berlin.id && view.isFavourite == false)
            let (methodStatus, headers) = try await weather.client.execute(uri: "/v1/me/favourites", method: .post) { ($0.status, $0.headers) }
            #expect(methodStatus == .methodNotAllowed && headers[.allow] == "GET, HEAD")
        }
    }

    @Test("X3: every weather symbol of the domain is one of the document's")
    func test_X3_conditionsInDocument() {
        for condition in WeatherCondition.allCases {
            #expect(Components.Schemas.Condition(rawValue: condition.rawValue) != nil, "\(condition)")
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
