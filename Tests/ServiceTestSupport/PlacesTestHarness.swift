import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PlacesImporter
import PlatformCore
import PlatformHTTP
import PostgresNIO
import Prometheus
import TestSupport
import Testing

/// Runs the real places-importer on a fresh database (PostGIS installed by its migration, as the test role
/// may), its own places topic, and one fake server answering as Overpass, Yelp and Nominatim by path.
package struct PlacesTestHarness: ServiceHarnessing {
    package let core: ServiceHarness
    package let provider: FakeHTTPServer
    package var topic: String { topics["PLACES_TOPIC"] }
    /// appointment-booker's requests for places of worship (B4).
    package var requestsTopic: String { topics["PLACES_REQUESTS_TOPIC"] }

    package static func run(
        extraEnvironment: [String: String] = [:],
        provider handler: @escaping FakeHTTPServer.Handler = PlacesTestHarness.defaultProvider,
        tokens: TestTokens? = nil,
        _ body: @Sendable (PlacesTestHarness) async throws -> Void
    ) async throws {
        let topics = ServiceTopics(["PLACES_TOPIC": "places", "PLACES_USERS_TOPIC": "users", "PLACES_REQUESTS_TOPIC": "place-requests"])
        let tokens = try tokens ?? TestTokens()
        try await withFakeHTTPServer(handler) { fake in
            let environment = [
                "PLACES_OVERPASS_BASE_URL": fake.baseURL, "PLACES_YELP_BASE_URL": fake.baseURL,
                "PLACES_NOMINATIM_BASE_URL": fake.baseURL, "PLACES_IMPORT_TICK_MS": "50",
                "PLACES_PROVIDER_TIMEOUT_MS": "3000", "PLACES_PROVIDER_BACKOFF_MS": "10", "PLACES_PROVIDER_MAX_BACKOFF_MS": "3000",
                "PLACES_PROVIDER_REQUESTS_PER_SECOND": "1000",
                // The fuzzer looks addresses up many times with one account; the quota test sets its own.
                "PLACES_LOOKUPS_PER_ACCOUNT_HOUR": "100000", "PLACES_LOOKUP_QUEUE": "100",
                // Suites about other features list places where no area was imported; the on-demand suite
                // and the fuzzer turn it on.
                "PLACES_ON_DEMAND": "false",
            ]
            try await ServiceHarness.run(
                .placesImporter, topics: topics, tokens: tokens, environment: environment, extra: extraEnvironment
            ) { core in
                try await body(PlacesTestHarness(core: core, provider: fake))
            }
        }
    }

    /// Overpass answers the default elements, Yelp nothing, Nominatim the Betahaus address.
    package static let defaultProvider: FakeHTTPServer.Handler = { request in
        switch request.path {
        case "/api/interpreter": .init(body: PlacesFixtures.overpass())
        case "/v3/businesses/search": .init(body: PlacesFixtures.yelp(businesses: [], total: 0))
        case "/search": .init(body: request.query["q"]?.contains("Rudi-Dutschke") == true ? PlacesFixtures.nominatimFound : "[]")
        case "/reverse":
            .init(
                body: request.query["lat"]?.hasPrefix("52.53") == true
                    ? String(PlacesFixtures.nominatimFound.dropFirst().dropLast()) : #"{"error":"Unable to geocode"}"#)
        default: .init(status: 404, body: "{}")
        }
    }

    package func token(_ user: String = UUID().uuidString, role: UserRole = .user) async throws -> String {
        try await tokens.token(userId: user, role: role)
    }

    /// Adds an import area as an admin (it runs at once) and waits until that run finished.
    @discardableResult
    package func importArea(
        name: String = "mitte", south: Double = 52.51, west: Double = 13.38, north: Double = 52.53, east: Double = 13.41
    ) async throws -> JSONValue {
        let admin = try await token("admin-1", role: .admin)
        let finishedBefore = try await finishedRuns()
        let (status, body) = try await request(
            .post, "/v1/admin/import-areas", json: ["name": name, "south": south, "west": west, "north": north, "east": east],
            bearer: admin)
        #expect(status == .ok, "\(body.raw ?? "")")
        #expect(try await eventually { try await finishedRuns() > finishedBefore }, "the import finished")
        let (_, list) = try await request(.get, "/v1/admin/import-areas", bearer: admin)
        return list["areas"].array.first { $0["name"].string == name } ?? JSONValue(nil)
    }

    package func finishedRuns() async throws -> Int {
        try await count("SELECT coalesce(sum(runs), 0)::int FROM import_areas")
    }
}
