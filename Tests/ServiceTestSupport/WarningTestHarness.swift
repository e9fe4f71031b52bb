import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformKafka
import PostgresNIO
import Prometheus
import TestSupport
import Testing
import WarningDetector

/// Runs the real warning-detector on a fresh database with its own forecast, favourite and warning topics on
/// the real broker, and a fake APNs provider: HTTPS with a throw-away certificate the service trusts, HTTP/2
/// by ALPN. The push signing key is made per run; tests check the provider token against its public half.
package struct WarningTestHarness: ServiceHarnessing {
    package let core: ServiceHarness
    package let push: FakeHTTPServer
    package let pushKey: P256.Signing.PrivateKey
    package var forecastsTopic: String { topics["WARNING_FORECASTS_TOPIC"] }
    package var userCitiesTopic: String { topics["WARNING_USER_CITIES_TOPIC"] }
    package var warningsTopic: String { topics["WARNING_WARNINGS_TOPIC"] }
    package var appointmentsTopic: String { topics["WARNING_APPOINTMENTS_TOPIC"] }

    package static let teamId = "TEAM123456"
    package static let keyId = "KEY7654321"

    package static func run(
        extraEnvironment: [String: String] = [:],
        push handler: @escaping FakeHTTPServer.Handler = WarningTestHarness.acceptAll,
        tokens: TestTokens? = nil,
        _ body: @Sendable (WarningTestHarness) async throws -> Void
    ) async throws {
        let tokens = try tokens ?? TestTokens()
        let topics = ServiceTopics([
            "WARNING_FORECASTS_TOPIC": "forecasts", "WARNING_USER_CITIES_TOPIC": "user-cities", "WARNING_WARNINGS_TOPIC": "warnings",
            "WARNING_APPOINTMENTS_TOPIC": "appointments", "WARNING_USERS_TOPIC": "users",
        ])
        let certificate = try TestCertificate()
        defer { try? FileManager.default.removeItem(atPath: certificate.certificateFile) }
        let pushKey = P256.Signing.PrivateKey()
        try await withFakeHTTPServer(tls: certificate, handler) { fake in
            let environment = [
                "CONSUMER_MAX_ATTEMPTS": "2",
                "PUSH_BASE_URL": fake.baseURL, "PUSH_CA_FILE": certificate.certificateFile, "PUSH_TEAM_ID": teamId,
                "PUSH_KEY_ID": keyId, "PUSH_SIGNING_KEY": pushKey.pemRepresentation, "PUSH_TOPIC": "com.example.weather",
                "PUSH_TICK_MS": "50", "PUSH_BACKOFF_MS": "20", "PUSH_MAX_BACKOFF_MS": "200",
                // Tests drive the daily run themselves, at the moments they choose.
                "DAILY_FORECAST_ENABLED": "false",
            ]
            try await ServiceHarness.run(
                .warningDetector, topics: topics, tokens: tokens, environment: environment, extra: extraEnvironment
            ) { core in
                try await body(WarningTestHarness(core: core, push: fake, pushKey: pushKey))
            }
        }
    }

    /// APNs' answer to a good request: 200 with an `apns-id`.
    package static let acceptAll: FakeHTTPServer.Handler = { _ in
        .init(headers: ["apns-id": UUID().uuidString], body: "")
    }

    // MARK: Events in

    package func publishRaw(_ bytes: [UInt8], key: String, to topic: String) async throws {
        try await withProducer { producer in
            try await producer.send(KafkaOutgoingMessage(topic: topic, key: key, value: bytes))
        }
    }

    @discardableResult
    package func publishForecast(_ forecast: ForecastUpdated, id: UUID = UUID()) async throws -> EventEnvelope<ForecastUpdated> {
        let envelope = EventEnvelope(
            id: id, type: EventTypes.forecastUpdated, occurredAt: forecast.fetchedAt, producer: "weather-fetcher",
            key: String(forecast.city.id), payload: forecast)
        try await publish(envelope, to: forecastsTopic)
        return envelope
    }

    package func favourite(_ userId: String, _ city: ForecastCity, added: Bool = true) async throws {
        try await publish(
            EventEnvelope(
                type: added ? EventTypes.favouriteAdded : EventTypes.favouriteRemoved, producer: "weather-fetcher", key: userId,
                payload: FavouriteChanged(userId: userId, city: city)),
            to: userCitiesTopic)
    }

    // MARK: HTTP

    package func token(_ user: String = UUID().uuidString, role: UserRole = .user) async throws -> String {
        try await tokens.token(userId: user, role: role)
    }

    /// Registers a device for a new user with the current location; returns the user id and device token.
    package func device(
        currentCityId: Int?, userId: String = UUID().uuidString, timeZone: String? = nil, app: String? = nil, language: String? = nil
    ) async throws -> (user: String, token: String) {
        let deviceToken = (0..<4).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }.joined().prefix(64)
        var json: [String: Any] = [:]
        if let currentCityId { json["currentCityId"] = currentCityId }
        if let timeZone { json["timeZone"] = timeZone }
        if let app { json["app"] = app }
        if let language { json["language"] = language }
        let (status, body) = try await request(.put, "/v1/me/devices/\(deviceToken)", json: json, bearer: try await token(userId))
        #expect(status == .ok, "\(body.raw ?? "")")
        return (userId, String(deviceToken))
    }
}
