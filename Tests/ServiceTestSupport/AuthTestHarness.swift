import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import Prometheus
import TestSupport
import Testing

/// Runs the real auth service (its own buildApplication) on a fresh database, with a real SMTP sink.
package struct AuthTestHarness: ServiceHarnessing {
    package let core: ServiceHarness
    package let smtp: SMTPSink
    /// Where auth reads fortune tellers' applications (B6), unless the test named its own.
    package var partnerApplicationsTopic: String { topics["AUTH_PARTNER_APPLICATIONS_TOPIC"] }

    /// `smtp`: the mail server to send to (a plain sink by default); its security settings go in `extraEnvironment`.
    /// `logger`: where the service logs (a test that reads the log lines passes its own).
    package static func run(
        extraEnvironment: [String: String] = [:], smtp: SMTPSink? = nil, logger: Logger = Logger(label: "auth-test"),
        _ body: @Sendable (AuthTestHarness) async throws -> Void
    ) async throws {
        let tokens = try TestTokens()
        let smtp = try smtp ?? SMTPSink()
        let environment = [
            "AUTH_SIGNING_KEY": tokens.privateKeyBase64URL,
            "BCRYPT_COST": "4", "SMTP_PORT": "\(smtp.port)", "SMTP_FROM": "auth@test.example",
            "AUTH_RESET_URL": "https://dashboard.test/reset",
            "BOOTSTRAP_ADMIN_EMAIL": "admin@example.com", "BOOTSTRAP_ADMIN_PASSWORD": "Start1234",
        ]
        // Fortune tellers' applications (B6) arrive on a topic of the run's own, unless the test names its own.
        let topics = ServiceTopics(["AUTH_PARTNER_APPLICATIONS_TOPIC": "partner-applications"])
        try await ServiceHarness.run(.auth, topics: topics, tokens: tokens, environment: environment, extra: extraEnvironment, logger: logger) {
            core in
            let harness = AuthTestHarness(core: core, smtp: smtp)
            #expect(try await eventually { try await harness.adminExists() }, "bootstrap admin was created")
            try await body(harness)
        }
    }

    package func adminExists() async throws -> Bool {
        let rows = try await db.client.query("SELECT count(*) FROM accounts WHERE email = 'admin@example.com'", logger: db.logger)
        for try await count in rows.decode(Int.self) { return count == 1 }
        return false
    }

    package func request(
        _ method: HTTPRequest.Method, _ path: String, body: Data? = nil, headers extra: HTTPFields = [:], bearer: String? = nil
    ) async throws -> (HTTPResponse.Status, JSONObject) {
        var headers: HTTPFields = [.contentType: "application/json"]
        headers.append(contentsOf: extra)
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        return try await client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) }) { response in
            let text = String(buffer: response.body)
            #expect(!text.contains("$2b$") && !text.lowercased().contains("hash"), "no hash in \(path)")
            return (response.status, JSONObject(text))
        }
    }

    /// Logs the bootstrap admin in; returns its access token.
    package func adminToken() async throws -> String {
        let (_, body) = try await post("/v1/dashboard/login", ["email": "admin@example.com", "password": "Start1234"])
        return try #require(body["accessToken"])
    }

    /// POSTs JSON and returns status and decoded body (as a dictionary), checking no hash ever leaves the service.
    package func post(_ path: String, _ body: [String: String], bearer: String? = nil) async throws -> (HTTPResponse.Status, JSONObject) {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        let data = try JSONEncoder().encode(body)
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(bytes: data)) { response in
            let text = String(buffer: response.body)
            #expect(!text.contains("$2b$") && !text.contains("$2a$") && !text.lowercased().contains("hash"), "no hash in \(path)")
            return (response.status, JSONObject(text))
        }
    }
}

/// A JSON response read by dotted path, as auth's tests compare texts: `object["error.code"]`,
/// `object["accounts.0.email"]` (`JSONValue.text(at:)` underneath).
package struct JSONObject: Sendable {
    package let value: JSONValue

    package init(_ text: String) { value = JSONValue(parsing: text) }

    package subscript(path: String) -> String? { value.text(at: path) }
}
