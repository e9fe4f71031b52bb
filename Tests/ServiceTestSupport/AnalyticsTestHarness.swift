import AnalyticsAggregator
import Foundation
import HTTPTypes
import Hummingbird
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PostgresNIO
import TestSupport
import Testing

/// Runs the real analytics-aggregator on a fresh database with its own telemetry, users and user-cities topics
/// on the real broker. Auth's and weather's sides are played by publishing their events; tokens are minted
/// with the test key, as auth would.
package struct AnalyticsTestHarness: ServiceHarnessing {
    package static let weatherKey = "weather-test-key-0001"
    package static let weatherNextKey = "weather-test-key-0002"
    package static let placesKey = "places-test-key-00001"

    package let core: ServiceHarness
    package var port: Int { client.port ?? 0 }
    package var usersTopic: String { topics["ANALYTICS_USERS_TOPIC"] }
    package var userCitiesTopic: String { topics["ANALYTICS_USER_CITIES_TOPIC"] }

    /// `tokens`: the key pair to verify tokens with (auth's, when a test runs both services).
    /// `fixedPort`: serve on this port (a browser test must know the dashboard's origin before auth starts).
    /// `brokers`: a broker of the test's own (one it restarts) instead of the shared one.
    package static func run(
        extraEnvironment: [String: String] = [:], tokens: TestTokens? = nil, fixedPort: Int? = nil,
        brokers: String = TestInfrastructure.current.kafkaBrokers, _ body: @Sendable (AnalyticsTestHarness) async throws -> Void
    ) async throws {
        let topics = ServiceTopics([
            "ANALYTICS_TELEMETRY_TOPIC": "telemetry", "ANALYTICS_USERS_TOPIC": "users", "ANALYTICS_USER_CITIES_TOPIC": "user-cities",
        ])
        let environment = [
            "CONSUMER_MAX_ATTEMPTS": "2",
            "TELEMETRY_APP_KEYS": "weather=\(weatherKey),\(weatherNextKey);places=\(placesKey)",
            "STREAM_INTERVAL_MS": "100",
            // Exact answers right after each change; the cache has a test of its own.
            "STATS_CACHE_MS": "0",
            // Suites send tens of thousands of events from one address; the quota test sets its own.
            "TELEMETRY_EVENTS_PER_MINUTE_PER_ADDRESS": "10000000", "TELEMETRY_EVENTS_PER_MINUTE_PER_APP": "10000000",
        ]
        try await ServiceHarness.run(
            .analyticsAggregator, topics: topics, tokens: try tokens ?? TestTokens(), environment: environment, extra: extraEnvironment,
            port: fixedPort, brokers: brokers
        ) { core in try await body(AnalyticsTestHarness(core: core)) }
    }

    // MARK: Telemetry

    /// One event as an app sends it.
    package static func event(
        _ kind: String, device: String = UUID().uuidString, user: String? = nil, at time: Date = Date(), id: UUID = UUID(),
        platform: String? = nil, feature: String? = nil, city: Int? = nil, cityName: String? = nil
    ) -> [String: any Sendable] {
        var event: [String: any Sendable] = ["id": id.uuidString, "kind": kind, "occurredAt": iso(time), "deviceId": device]
        if let user { event["userId"] = user }
        if kind == "install" {
            event["platform"] = platform ?? "ios"
            event["appVersion"] = "1.0"
        }
        if let feature { event["feature"] = feature }
        if kind == "screen_viewed" { event["screen"] = "home" }
        if let city { event["cityId"] = city }
        if let cityName { event["cityName"] = cityName }
        return event
    }

    package static func iso(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }

    package func ingest(_ events: [[String: any Sendable]], key: String? = weatherKey) async throws -> (HTTPResponse.Status, JSONValue) {
        try await send(.post, "/v1/telemetry", body: try JSONSerialization.data(withJSONObject: ["events": events]), appKey: key)
    }

    /// Sends `events` in batches of `batchSize`, each answered 202 with nothing rejected.
    package func ingestAll(_ events: [[String: any Sendable]], batchSize: Int = 500, key: String = weatherKey) async throws {
        var start = 0
        while start < events.count {
            let batch = Array(events[start..<min(start + batchSize, events.count)])
            let (status, body) = try await ingest(batch, key: key)
            #expect(status == .accepted && body["rejected"].count == 0, "batch at \(start): \(status) \(body.raw ?? "")")
            start += batchSize
        }
    }

    // MARK: HTTP

    package func send(
        _ method: HTTPRequest.Method, _ path: String, body: Data? = nil, bearer: String? = nil, appKey: String? = nil,
        contentType: String = "application/json"
    ) async throws -> (HTTPResponse.Status, JSONValue) {
        var headers: HTTPFields = [.contentType: contentType]
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        if let appKey, let name = HTTPField.Name("X-App-Key") { headers[name] = appKey }
        let (status, text) = try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) }
        ) { ($0.status, String(buffer: $0.body)) }
        return (status, JSONValue(parsing: text))
    }

    package func adminToken() async throws -> String { try await tokens.token(userId: UUID().uuidString, role: .admin) }
    package func userToken(_ user: String = UUID().uuidString) async throws -> String { try await tokens.token(userId: user, role: .user) }
    package func guestToken() async throws -> String { try await tokens.token(userId: UUID().uuidString, role: .guest) }

    /// `GET` with an admin's token; the body.
    package func stats(_ path: String) async throws -> JSONValue {
        let (status, body) = try await request(.get, path, bearer: try await adminToken())
        #expect(status == .ok, "\(path): \(status) \(body.raw ?? "")")
        return body
    }

    /// Waits until the home page's total downloads reach `total`.
    package func waitForDownloads(_ total: Int, timeout: Duration = .seconds(60)) async throws -> Bool {
        let admin = try await adminToken()
        return try await eventually(timeout: timeout) {
            let (_, body) = try await request(.get, "/v1/admin/stats/home", bearer: admin)
            return body["downloads"]["total"].int == total
        }
    }

    // MARK: Other services' events

    /// auth's events for a new survey account; with a `mailbox`, also its address verified (as auth publishes
    /// them when the mailed code is entered), which the survey's coupon waits for.
    package func registerSurveyAccount(_ user: UUID, verifiedMailbox mailbox: String? = UUID().uuidString) async throws {
        let envelope = EventEnvelope(
            type: EventTypes.userRegistered, producer: "auth", key: user.uuidString,
            payload: UserRegistered(userId: user, kind: .survey, role: .user))
        try await publish(envelope, to: usersTopic)
        if let mailbox {
            try await verifySurveyAccount(user, mailbox: mailbox)
            // Registration and verification may be applied in two batches: the caller's survey starts verified.
            let key = user.uuidString.lowercased()
            #expect(
                try await eventually {
                    try await count("SELECT count(*)::int FROM survey_accounts WHERE user_id = '\(key)' AND verified_at IS NOT NULL") == 1
                }, "the account's verification was applied")
        }
    }

    package func verifySurveyAccount(_ user: UUID, mailbox: String) async throws {
        try await publish(
            EventEnvelope(
                type: EventTypes.userEmailVerified, producer: "auth", key: user.uuidString,
                payload: UserEmailVerified(userId: user, kind: .survey, mailboxKey: mailbox)),
            to: usersTopic)
    }
}
