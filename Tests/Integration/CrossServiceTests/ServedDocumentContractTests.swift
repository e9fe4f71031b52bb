import Foundation
import HTTPTypes
import HummingbirdTesting
import ServiceTestSupport
import TestSupport
import Testing

/// Each service against its own document (X3), one suite over the six: `/openapi.yaml` is the checked-in file
/// byte for byte, a known path asked with a method it lacks is 405 naming the methods it has, and an unknown
/// path is 404.
@Suite("The six services serve their own API documents (X3)")
struct ServedDocumentContractTests {
    typealias Body = @Sendable (_ client: HarnessClient, _ bearer: String?) async throws -> Void

    struct Service: Sendable, CustomTestStringConvertible {
        var executable: String
        /// A known path, a method it does not have, and the `Allow` expected (nil: not compared).
        var path: String
        var method: HTTPRequest.Method
        var allow: String?
        /// Starts the service through its harness and runs the body with its client and the token the path needs.
        var start: @Sendable (@escaping Body) async throws -> Void
        var testDescription: String { executable }
    }

    static let services: [Service] = [
        Service(executable: "weather-fetcher", path: "/v1/me/favourites", method: .post, allow: "GET, HEAD") { body in
            try await WeatherTestHarness.run { try await body($0.client, nil) }
        },
        Service(executable: "warning-detector", path: "/v1/news", method: .delete, allow: "GET, HEAD") { body in
            try await WarningTestHarness.run { try await body($0.client, nil) }
        },
        Service(executable: "places-importer", path: "/v1/admin/import-areas", method: .delete, allow: "GET, POST, HEAD") { body in
            try await PlacesTestHarness.run { places in try await body(places.client, try await places.token("admin", role: .admin)) }
        },
        Service(executable: "auth", path: "/v1/dashboard/password/reset", method: .delete, allow: "GET, POST, HEAD") { body in
            try await AuthTestHarness.run { try await body($0.client, nil) }
        },
        Service(executable: "appointment-booker", path: "/v1/partners", method: .delete, allow: "GET, HEAD") { body in
            try await BookingTestHarness.run { try await body($0.client, nil) }
        },
        Service(executable: "analytics-aggregator", path: "/v1/poll", method: .delete, allow: nil) { body in
            try await AnalyticsTestHarness.run { try await body($0.client, nil) }
        },
    ]

    @Test(
        "X3: /openapi.yaml is the checked-in openapi.yaml, byte for byte; another method is 405 with Allow; an unknown path 404",
        arguments: services)
    func served(_ service: Service) async throws {
        let document = Array(try Data(contentsOf: RepositoryFiles.openAPIDocument(of: service.executable)))
        try await service.start { client, bearer in
            let served = try await client.execute(uri: "/openapi.yaml", method: .get) { Array(buffer: $0.body) }
            #expect(served == document)
            var headers: HTTPFields = [:]
            if let bearer { headers[.authorization] = "Bearer \(bearer)" }
            let (status, allow) = try await client.execute(uri: service.path, method: service.method, headers: headers) {
                ($0.status, $0.headers[.allow])
            }
            #expect(status == .methodNotAllowed, "\(service.method) \(service.path)")
            if let expected = service.allow { #expect(allow == expected, "Allow: \(allow ?? "none")") }
            #expect(try await client.execute(uri: "/v1/nowhere", method: .get) { $0.status } == .notFound)
        }
    }
}
