import Foundation
import PostgresNIO
import ServiceTestSupport
import TestSupport
import Testing

/// Issue 29: an app install gets a real account without a form, and the other services take its tokens.
@Suite("Install accounts for the apps without a sign-in")
struct AuthInstallTests {
    @Test("U5, issue 29: an install gets an access and a refresh token for an account of its own; bad input is 400")
    func test_installAccount() async throws {
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

    @Test("U5, issue 29: install accounts are limited per client address (INSTALLS_PER_ADDRESS) and for everyone (INSTALLS_PER_HOUR)")
    func test_installLimits() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["INSTALLS_PER_ADDRESS": "2"]) { auth in
            var statuses: [Int] = []
            for index in 0..<3 {
                let (status, _) = try await auth.post("/v1/installs", ["app": "places", "installId": "android-\(index)"])
                statuses.append(Int(status.code))
            }
            #expect(statuses == [201, 201, 429])
            #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE kind = 'install'") == 2, "a refused one creates nothing")
        }
        try await AuthTestHarness.run(extraEnvironment: ["INSTALLS_PER_HOUR": "1"]) { auth in
            let (first, _) = try await auth.post("/v1/installs", ["app": "horoscope", "installId": "a"])
            let (second, body) = try await auth.post("/v1/installs", ["app": "horoscope", "installId": "b"])
            #expect(first == .created && second == .tooManyRequests && body["error.code"] == "too_many_attempts")
        }
    }

    @Test("Issue 29: the weather and places apps reach their personal routes with an install's token from auth")
    func test_installTokensAcrossServices() async throws {
        try await AuthTestHarness.run { auth in
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
