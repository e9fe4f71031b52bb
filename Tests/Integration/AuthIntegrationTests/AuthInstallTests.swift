import Foundation
import HTTPTypes
import PostgresNIO
import ServiceTestSupport
import TestSupport
import Testing

/// U8: an app install gets a real account without a form, and the other services take its tokens.
@Suite("Install accounts for the apps without a sign-in")
struct AuthInstallTests {
    @Test("U5, U8: an install gets an access and a refresh token for an account of its own; bad input is 400")
    func installAccount() async throws {
        try await AuthTestHarness.run { auth in
            var (status, body) = try await auth.post("/v1/installs", ["app": "weather", "installId": "ios-4F2A-1"])
            #expect(status == .created, "\(body)")
            #expect(body["account.kind"] == "install" && body["account.role"] == "user" && body["tokenType"] == "Bearer")
            let refresh = try #require(body["refreshToken"])
            let first = try #require(body["account.id"])
            (status, body) = try await auth.post("/v1/sessions/refresh", ["refreshToken": refresh])
            #expect(status == .ok && body["account.id"] == first, "the refresh token keeps the account across launches")
            (status, body) = try await auth.post("/v1/installs", ["app": "weather", "installId": "ios-4F2A-1"])
            #expect(status == .created && body["account.id"] != first, "an install id is no key to someone's account")

            for bad in [
                ["app": "dashboard", "installId": "x"], ["app": "places", "installId": ""], ["app": "places", "installId": "a b"],
                ["app": "places", "installId": String(repeating: "a", count: 129)], ["app": "places"],
            ] {
                (status, _) = try await auth.post("/v1/installs", bad)
                #expect(status == .badRequest, "\(bad)")
            }
            let rows = try await auth.db.client.query(
                """
                SELECT count(*)::int FROM outbox WHERE event_type = 'user.registered'
                  AND convert_from(payload, 'UTF8')::jsonb #>> '{payload,kind}' = 'install'
                  AND convert_from(payload, 'UTF8')::jsonb #>> '{payload,app}' = 'weather'
                """, logger: auth.db.logger)
            #expect(try await rows.decode(Int.self).collectAll().first == 2)
        }
    }

    @Test("U5, X1: install accounts are limited per client address and per network (/24, /56, /48), with no cap for everyone")
    func installLimits() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["INSTALLS_PER_ADDRESS": "2"]) { auth in
            var statuses: [Int] = []
            for index in 0..<3 {
                let (status, _) = try await auth.post("/v1/installs", ["app": "places", "installId": "android-\(index)"])
                statuses.append(Int(status.code))
            }
            #expect(statuses == [201, 201, 429])
            #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE kind = 'install'") == 2, "a refused one creates nothing")
        }
        @Sendable func install(_ auth: AuthTestHarness, from client: String, _ id: String) async throws -> HTTPResponse.Status {
            let body = try JSONEncoder().encode(["app": "horoscope", "installId": id])
            return try await auth.request(.post, "/v1/installs", body: body, headers: [HTTPField.Name("X-Forwarded-For")!: client]).0
        }
        let environment = ["INSTALLS_PER_NETWORK": "2", "INSTALLS_PER_SITE": "3", "TRUSTED_PROXIES": "127.0.0.1, ::1"]
        try await AuthTestHarness.run(extraEnvironment: environment) { auth in
            // Two addresses of one /24 share its two; another /24 is not touched by them.
            #expect(try await install(auth, from: "203.0.113.5", "a") == .created)
            #expect(try await install(auth, from: "203.0.113.6", "b") == .created)
            #expect(try await install(auth, from: "203.0.113.7", "c") == .tooManyRequests)
            #expect(try await install(auth, from: "198.51.100.7", "d") == .created, "no cap for everyone: another network gets its own")
            // IPv6: /64s of one /56 share it; /56s of one /48 share the site's three.
            #expect(try await install(auth, from: "2001:db8:0:100::1", "e") == .created)
            #expect(try await install(auth, from: "2001:db8:0:1ff::1", "f") == .created)
            #expect(try await install(auth, from: "2001:db8:0:1aa::1", "g") == .tooManyRequests, "the /56's two are used")
            #expect(try await install(auth, from: "2001:db8:0:200::1", "h") == .created)
            #expect(try await install(auth, from: "2001:db8:0:300::1", "i") == .tooManyRequests, "the /48's three are used")
            let made = try await auth.count("SELECT count(*)::int FROM accounts WHERE kind = 'install'")
            #expect(made == 6, "a refused one creates nothing")
            // A guest session counts against the same networks.
            let guest = try await auth.request(
                .post, "/v1/horoscope/guest", body: Data("{}".utf8), headers: [HTTPField.Name("X-Forwarded-For")!: "203.0.113.9"]
            ).0
            #expect(guest == .tooManyRequests)
        }
    }

    @Test("U8: the weather and places apps reach their personal routes with an install's token from auth")
    func installTokensAcrossServices() async throws {
        // Adding a place needs a trusted account (`AuthInstallTrustTests`): these installs are trusted at once.
        try await AuthTestHarness.run(extraEnvironment: LifecycleAuth.trustingInstalls) { auth in
            try await WeatherTestHarness.run(tokens: auth.tokens) { weather in
                let (_, session) = try await auth.post("/v1/installs", ["app": "weather", "installId": "ios-weather-1"])
                let token = try #require(session["accessToken"])
                let (status, _) = try await weather.request(.put, "/v1/me/favourites/2950159", bearer: token)  // Berlin, in the test catalogue
                #expect(status == .ok || status == .created || status == .noContent, "\(status)")
                let (listed, body) = try await weather.request(.get, "/v1/me/favourites", bearer: token)
                #expect(listed == .ok && "\(body)".contains("2950159"))
            }
            try await PlacesTestHarness.run(tokens: auth.tokens) { places in
                let (_, session) = try await auth.post("/v1/installs", ["app": "places", "installId": "android-places-1"])
                let token = try #require(session["accessToken"])
                let (status, body) = try await places.request(
                    .post, "/v1/places", json: ["name": "Kitchen Desk", "latitude": 52.5, "longitude": 13.4, "category": "other"], bearer: token)
                #expect(status == .created, "\(body.raw ?? "")")
            }
        }
    }
}
