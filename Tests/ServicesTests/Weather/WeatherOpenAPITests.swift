import Foundation
import Testing
import TestSupport

/// The served OpenAPI document is valid and every operation in it is routed (X3).
@Suite("weather-fetcher: the served OpenAPI document")
struct WeatherOpenAPITests {
    @Test("X3: /openapi.yaml is a valid OpenAPI document and every operation in it exists in the router")
    func test_X3_openAPIDocumentMatchesRoutes() async throws {
        try await WeatherTestHarness.run { weather in
            let document = try await weather.client.execute(uri: "/openapi.yaml", method: .get) { String(buffer: $0.body) }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("weather-openapi-\(uniqueSuffix()).yaml")
            try document.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let python = try #require(ProcessInfo.processInfo.environment["TEST_PYTHON"], "run the tests with scripts/test.sh")
            let validator = Process()
            validator.executableURL = URL(fileURLWithPath: python)
            validator.arguments = ["-m", "openapi_spec_validator", file.path]
            let output = Pipe()
            validator.standardOutput = output
            validator.standardError = output
            try validator.run()
            let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            validator.waitUntilExit()
            #expect(validator.terminationStatus == 0, "\(report)")
            let operations = AuthOpenAPITests.operations(in: document)
            #expect(operations.count == 10)
            let user = try await weather.token()
            for (path, method) in operations {
                let uri = path.replacingOccurrences(of: "{cityId}", with: String(WeatherFixtures.berlin.id))
                let (status, body) = try await weather.request(.init(rawValue: method.uppercased())!, uri, bearer: user)
                let message = JSONValue(body)["error"]["message"].string
                #expect(status != .methodNotAllowed && status != .notFound || message != "no such route", "\(method.uppercased()) \(path) is documented but not routed")
            }
        }
    }
}
