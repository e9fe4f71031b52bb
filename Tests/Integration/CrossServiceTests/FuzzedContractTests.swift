import Foundation
import PlatformCore
import PlatformHTTP
import ServiceTestSupport
import TestSupport
import Testing

@testable import AnalyticsAggregator
@testable import AppointmentBooker
@testable import Auth
@testable import PlacesImporter
@testable import WarningDetector
@testable import WeatherFetcher

/// Each of the six services against its own document (X3): Schemathesis with every check on, once per identity
/// the document distinguishes. A case starts the service through its harness, gives it something to find, and
/// fuzzes it with that identity's token.
@Suite("The six services against their own documents: Schemathesis (X3)", .serialized)
struct FuzzedContractTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var executable: String
        var identity: String
        /// Starts the service, fuzzes it, and records what Schemathesis found.
        var fuzz: @Sendable () async throws -> Void
        var testDescription: String { "\(executable) as \(identity)" }
    }

    static let cases: [Case] = weather + warnings + places + auth + analytics + appointments

    @Test("X3: Schemathesis finds no failure", arguments: cases)
    func fuzzed(_ fuzzCase: Case) async throws {
        try await fuzzCase.fuzz()
    }

    /// A payment webhook secret for the services that verify one: unconfigured, the webhook answers a documented
    /// 503, which Schemathesis counts as a server error.
    static let webhookSecret = "whsec-fuzz-0123456789abcdef0123456789"

    /// Fuzzes the service listening on `port` and expects no failure.
    static func fuzz(
        port: Int?, bearer: String?, headers: [String: String] = [:], excludedPaths: [String] = []
    ) async throws {
        let outcome = try await Schemathesis.run(
            baseURL: "http://127.0.0.1:\(port ?? 0)", bearer: bearer, headers: headers, excludedPaths: excludedPaths)
        #expect(outcome.exitCode == 0, "\(outcome.output)")
    }

    static let weather = ["anonymous", "user"].map { identity in
        Case(executable: "weather-fetcher", identity: identity) {
            try await WeatherTestHarness.run { weather in
                let token = identity == "user" ? try await weather.token() : nil
                try await fuzz(port: weather.client.port, bearer: token)
            }
        }
    }

    static let warnings = [nil, UserRole.user, .admin].map { role in
        Case(executable: "warning-detector", identity: role?.rawValue ?? "anonymous") {
            try await WarningTestHarness.run { harness in
                var token: String?
                if let role { token = try await harness.token("fuzz-\(role.rawValue)", role: role) }
                try await fuzz(port: harness.client.port, bearer: token)
            }
        }
    }

    static let places = [UserRole.user, .admin].map { role in
        Case(executable: "places-importer", identity: role.rawValue) {
            try await PlacesTestHarness.run(extraEnvironment: ["PLACES_ON_DEMAND": "true"]) { places in
                try await places.importArea()
                let token = try await places.token("fuzz-\(role.rawValue)", role: role)
                try await fuzz(port: places.client.port, bearer: token)
            }
        }
    }

    /// With an identity provider configured too, for the same reason as the webhook secret.
    static let auth = ["anonymous", "user", "admin"].map { identity in
        Case(executable: "auth", identity: identity) {
            let idp = FakeIdentityProvider()
            try await idp.serve {
                try await AuthTestHarness.run(extraEnvironment: [
                    "OIDC_JWKS_URL": "http://127.0.0.1:\(idp.port)/jwks.json", "OIDC_ISSUER": idp.issuer,
                    "OIDC_AUDIENCE": "horoscope-app", "OIDC_ALLOW_HTTP_LOOPBACK": "true", "PAYMENT_WEBHOOK_SECRET": webhookSecret,
                ]) { auth in
                    var token: String?
                    switch identity {
                    case "user":
                        _ = try await auth.post("/v1/survey/signup", ["email": "fuzz@hotel.com", "pin": "ab12", "pinConfirmation": "ab12"])
                        token = try await auth.post("/v1/survey/login", ["email": "fuzz@hotel.com", "pin": "ab12"]).1["accessToken"]
                    case "admin": token = try await auth.adminToken()
                    default: token = nil
                    }
                    if identity != "anonymous" { #expect(token != nil, "no \(identity) session for the fuzzer") }
                    try await fuzz(port: auth.client.port, bearer: token)
                }
            }
        }
    }

    /// With an app key for the ingest; the admin stream never ends, so it is left out.
    static let analytics = [nil, UserRole.user, .admin].map { role in
        Case(executable: "analytics-aggregator", identity: role?.rawValue ?? "anonymous") {
            try await AnalyticsTestHarness.run { harness in
                // Something to find: telemetry aggregated, a poll answer, a rated service.
                try await harness.ingestAll([
                    AnalyticsTestHarness.event("install"), AnalyticsTestHarness.event("feature_used", feature: "radar"),
                    AnalyticsTestHarness.event("city_viewed", city: 1_609_350),
                ])
                #expect(try await harness.waitForDownloads(1))
                var token: String?
                switch role {
                case .user?:
                    let user = UUID()
                    try await harness.registerSurveyAccount(user)
                    let userToken = try await harness.userToken(user.uuidString)
                    #expect(try await eventually { try await harness.request(.get, "/v1/survey", bearer: userToken).0 == .ok })
                    token = userToken
                case let role?: token = try await harness.tokens.token(userId: UUID().uuidString, role: role)
                case nil: token = nil
                }
                try await fuzz(
                    port: harness.port, bearer: token, headers: ["X-App-Key": AnalyticsTestHarness.weatherKey],
                    excludedPaths: ["/v1/admin/stream"])
            }
        }
    }

    static let appointments = [nil, UserRole.user, .partner, .admin].map { role in
        Case(executable: "appointment-booker", identity: role?.rawValue ?? "anonymous") {
            try await BookingTestHarness.run(extraEnvironment: ["PAYMENT_WEBHOOK_SECRET": webhookSecret]) { harness in
                // Something to find: a listed partner with slots and a booking.
                let partner = try await harness.listedPartner()
                _ = try await harness.book(partner, try await harness.futureSlot(partner), bearer: try await harness.bookerToken())
                var token: String?
                switch role {
                // Every paid feature, so the purchased readings' bodies are fuzzed past the entitlement check.
                case .user?:
                    token = try await harness.bookerToken(
                        entitlements: ["contact_fortune_teller", "tarot", "fortune_stick", "compatibility", "phone_number"])
                case .partner?: token = try await harness.partnerToken(partner)
                case let role?: token = try await harness.tokens.token(userId: UUID().uuidString, role: role)
                case nil: token = nil
                }
                try await fuzz(port: harness.client.port, bearer: token)
            }
        }
    }
}
