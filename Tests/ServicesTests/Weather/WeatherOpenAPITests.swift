import Foundation
import Testing
import TestSupport

@testable import WeatherFetcher

/// The served OpenAPI document is valid and every operation in it is routed (X3).
@Suite("weather-fetcher: the served OpenAPI document")
struct WeatherOpenAPITests {
    @Test("X3: /openapi.yaml is a valid OpenAPI document and every operation in it exists in the router")
    func test_X3_openAPIDocumentMatchesRoutes() async throws {
        try await WeatherTestHarness.run { weather in
            let document = try await weather.client.execute(uri: "/openapi.yaml", method: .get) { String(buffer: $0.body) }
            let report = try LegacyOpenAPIDocument.validationReport(document)
            #expect(report == nil, "\(report ?? "")")
            let operations = LegacyOpenAPIDocument.operations(in: document)
            #expect(operations.count == 10)
            let user = try await weather.token()
            for (path, method) in operations {
                let uri = path.replacingOccurrences(of: "{cityId}", with: String(WeatherFixtures.berlin.id))
                let (status, body) = try await weather.request(.init(rawValue: method.uppercased())!, uri, bearer: user)
                let message = JSONValue(body)["error"]["message"].string
                #expect(status != .methodNotAllowed && message != "no such route", "\(method.uppercased()) \(path) is documented but not routed")
            }
        }
    }
}
