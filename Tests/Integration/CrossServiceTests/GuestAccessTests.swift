import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// Guests (U5, X1): tokens of the `guest` role (issued before U8 made a horoscope guest an install
/// account) create no shared data in the other services, and auth bounds how many guest accounts one client
/// address can start.
@Suite("Guests are not full users")
struct GuestAccessTests {
    @Test("U5: a token of the old guest role gets 403 guests_not_allowed on weather favourites, warning devices and places' signed-in routes")
    func guestsRefusedOnSharedData() async throws {
        try await WeatherTestHarness.run { weather in
            let guest = try await weather.tokens.token(userId: "guest-1", role: .guest)
            let (status, body) = try await weather.request(.put, "/v1/me/favourites/2950159", bearer: guest)
            #expect(status == .forbidden && "\(body)".contains("guests_not_allowed"), "\(body)")
            let (member, _) = try await weather.request(.put, "/v1/me/favourites/2950159", bearer: try await weather.token())
            #expect(member != .forbidden)
        }
        try await WarningTestHarness.run { warnings in
            let token = String(repeating: "d0", count: 32)
            var (status, body) = try await warnings.request(
                .put, "/v1/me/devices/\(token)", json: ["timeZone": "Asia/Bangkok"], bearer: try await warnings.token(role: .guest))
            #expect(status == .forbidden && body["error"]["code"].string == "guests_not_allowed", "\(body.raw ?? "")")
            (status, _) = try await warnings.request(
                .put, "/v1/me/devices/\(token)", json: ["timeZone": "Asia/Bangkok"], bearer: try await warnings.token())
            #expect(status == .ok)
        }
        try await PlacesTestHarness.run { places in
            let guest = try await places.token(role: .guest)
            var (status, body) = try await places.request(
                .post, "/v1/places", json: ["name": "Guest cafe", "latitude": 52.52, "longitude": 13.4, "category": "cafe"], bearer: guest)
            #expect(status == .forbidden && body["error"]["code"].string == "guests_not_allowed", "\(body.raw ?? "")")
            (status, body) = try await places.request(.get, "/v1/places?lat=52.52&lon=13.4&radius=500", bearer: guest)
            #expect(status == .forbidden && body["error"]["code"].string == "guests_not_allowed", "\(body.raw ?? "")")
        }
    }

    @Test("U5: guest sessions are limited per client address (GUESTS_PER_ADDRESS)")
    func guestSessionsPerAddress() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["GUESTS_PER_ADDRESS": "2"]) { auth in
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(Int(try await auth.post("/v1/horoscope/guest", [:]).0.code)) }
            #expect(statuses == [200, 200, 429])
            #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE kind = 'install' AND app = 'horoscope' AND role = 'user'") == 2)
        }
    }
}
