import Foundation
import HTTPTypes
import ServiceTestSupport
import TestSupport
import Testing

/// U8: the weather app from nothing but its name and an install id, through auth, weather-fetcher and
/// warning-detector wired by the real broker as in production (forecasts, warnings, favourites, accounts).
@Suite("App journey: weather")
struct WeatherAppJourneyTests {
    static let berlin = 2950159

    @Test("U9 (W1-W8, A4, A5, U8, U9): an install reaches search, weather, recents, favourites, warning settings, a device and its profile")
    func weatherAppJourney() async throws {
        try await LifecycleAuth.run { auth, users in
            try await WarningTestHarness.run(extraEnvironment: ["WARNING_USERS_TOPIC": users], tokens: auth.tokens) { warnings in
                let wiring = [
                    "WEATHER_USERS_TOPIC": users, "WEATHER_USER_CITIES_TOPIC": warnings.userCitiesTopic,
                    "WEATHER_FORECASTS_TOPIC": warnings.forecastsTopic, "WEATHER_WARNINGS_TOPIC": warnings.warningsTopic,
                ]
                try await WeatherTestHarness.run(extraEnvironment: wiring, tokens: auth.tokens) { weather in
                    let app = try await auth.install("weather")
                    // The answer as text: the compiler crashes on `Any` in an expectation's message.
                    @Sendable func read(_ path: String) async throws -> (HTTPResponse.Status, String) {
                        let (status, body) = try await weather.get(path, bearer: app.access)
                        return (status, "\(body)")
                    }

                    var (status, body) = try await read("/v1/cities?q=Berl")
                    #expect(status == .ok && body.contains("\(Self.berlin)"), "search: \(body)")
                    (status, body) = try await read("/v1/cities/nearest?lat=52.52&lon=13.40")
                    #expect(status == .ok && body.contains("\(Self.berlin)"), "nearest: \(body)")
                    (status, body) = try await read("/v1/cities/\(Self.berlin)/weather")
                    #expect(status == .ok, "weather: \(body)")
                    (status, body) = try await read("/v1/me/recent-cities")
                    #expect(status == .ok && body.contains("\(Self.berlin)"), "recents: \(body)")
                    (status, _) = try await weather.request(.put, "/v1/me/favourites/\(Self.berlin)", bearer: app.access)
                    #expect(status.code < 300)
                    (status, body) = try await read("/v1/me/favourites")
                    #expect(status == .ok && body.contains("\(Self.berlin)"), "favourites: \(body)")

                    let device = String(repeating: "c3", count: 32)
                    var (answer, json) = try await warnings.request(
                        .put, "/v1/me/devices/\(device)", json: ["app": "weather", "currentCityId": Self.berlin, "timeZone": "Europe/Berlin"],
                        bearer: app.access)
                    #expect(answer == .ok, "device: \(json.raw ?? "")")
                    #expect(
                        try await eventually {
                            try await warnings.request(.get, "/v1/me/notification-settings", bearer: app.access).1["favourites"].count == 1
                        }, "the favourite reached warning-detector through the broker")
                    (answer, json) = try await warnings.request(
                        .put, "/v1/me/notification-settings", json: ["favourites": [["cityId": Self.berlin, "warnings": false]]], bearer: app.access)
                    #expect(answer == .ok, "settings: \(json.raw ?? "")")
                    (answer, json) = try await warnings.request(.get, "/v1/me/notification-settings", bearer: app.access)
                    #expect(json["favourites"][0]["warnings"].bool == false, "\(json.raw ?? "")")
                    (answer, json) = try await warnings.request(.get, "/v1/me/devices", bearer: app.access)
                    #expect(answer == .ok && json["devices"].count == 1)
                    (answer, json) = try await warnings.request(
                        .put, "/v1/me/notification-settings", json: ["currentLocation": ["forecasts": false]], bearer: app.access)
                    #expect(answer == .ok && json["currentLocation"]["forecasts"].bool == false, "current location: \(json.raw ?? "")")
                    (status, _) = try await weather.request(.delete, "/v1/me/favourites/\(Self.berlin)", bearer: app.access)
                    #expect(status.code < 300)
                    (status, body) = try await read("/v1/me/favourites")
                    #expect(status == .ok && !body.contains("\(Self.berlin)"), "un-favourited: \(body)")

                    let profile = try JSONSerialization.data(withJSONObject: ["language": "th", "timeZone": "Asia/Bangkok", "displayName": "Somchai"])
                    let (changed, me) = try await auth.request(.patch, "/v1/me", body: profile, bearer: app.access)
                    #expect(changed == .ok && me["language"] == "th" && me["account.kind"] == "install", "\(me)")
                }
            }
        }
    }
}
