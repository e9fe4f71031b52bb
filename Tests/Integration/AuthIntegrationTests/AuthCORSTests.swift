import Foundation
import HTTPTypes
import ServiceTestSupport
import TestSupport
import Testing

/// auth answers CORS for the admin dashboard's origins only (N5): the dashboard's page, served by
/// analytics-aggregator, calls auth from the browser.
@Suite("auth: CORS for the dashboard (N5)", .serialized)
struct AuthCORSTests {
    static let dashboard = "http://dashboard.test:8085"

    @Test("N5: a preflight from the dashboard's origin is answered; another origin gets no CORS headers; errors keep their JSON")
    func cors() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["DASHBOARD_ORIGINS": "\(Self.dashboard), http://other.test"]) { harness in
            let preflight: HTTPFields = [.origin: Self.dashboard, .accessControlRequestMethod: "POST", .accessControlRequestHeaders: "content-type"]
            let (status, headers) = try await harness.client.execute(uri: "/v1/dashboard/login", method: .options, headers: preflight) {
                ($0.status, $0.headers)
            }
            #expect(status.code < 300)
            #expect(headers[.accessControlAllowOrigin] == Self.dashboard)
            #expect(headers[.accessControlAllowMethods]?.contains("POST") == true)

            let foreign: HTTPFields = [.origin: "http://evil.test", .accessControlRequestMethod: "POST"]
            let (_, foreignHeaders) = try await harness.client.execute(uri: "/v1/dashboard/login", method: .options, headers: foreign) {
                ($0.status, $0.headers)
            }
            #expect(foreignHeaders[.accessControlAllowOrigin] == nil)

            // A refused login from the dashboard keeps its status, code and JSON body, with the CORS header.
            let body = try JSONSerialization.data(withJSONObject: ["email": "admin@example.com", "password": "Wrong1234"])
            let (refused, refusedHeaders, text) = try await harness.client.execute(
                uri: "/v1/dashboard/login", method: .post, headers: [.origin: Self.dashboard, .contentType: "application/json"],
                body: .init(bytes: body)
            ) { ($0.status, $0.headers, String(buffer: $0.body)) }
            #expect(refused == .unauthorized, "\(text)")
            #expect(text.contains("\"wrong_password\""), "\(text)")
            #expect(refusedHeaders[.accessControlAllowOrigin] == Self.dashboard)
        }
    }
}
