import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// U8 through auth, the broker and weather-fetcher: an install's favourites and recents follow it into the
/// account it signs in to, and go with that account when it is deleted.
@Suite("Account lifecycle: weather-fetcher")
struct WeatherAccountLifecycleTests {
    static let berlin = 2950159, bern = 2661552

    @Test(
        "U9 (W7, W8): an install merged into its OpenID Connect account brings its cities; deleting the account erases them and its tokens stop working"
    )
    func mergeThenDelete() async throws {
        let idp = FakeIdentityProvider()
        try await idp.serve {
            try await LifecycleAuth.run(oidc: idp) { auth, users in
                try await WeatherTestHarness.run(extraEnvironment: ["WEATHER_USERS_TOPIC": users], tokens: auth.tokens) { weather in
                    let install = try await auth.install("weather")
                    #expect(try await weather.request(.put, "/v1/me/favourites/\(Self.berlin)", bearer: install.access).0.code < 300)
                    #expect(try await weather.get("/v1/cities/\(Self.bern)/weather", bearer: install.access).0 == .ok)

                    let member = try await auth.signIn(idp, subject: "carol-\(UUID())", app: "weather")
                    var (status, body) = try await auth.merge(install: install, into: member.access)
                    #expect(status == .ok && body["account.id"]?.lowercased() == member.id, "\(body)")
                    #expect(
                        try await eventually {
                            "\(try await weather.get("/v1/me/favourites", bearer: member.access).1)".contains("\(Self.berlin)")
                        }, "the install's favourite is the account's")
                    let (_, recents) = try await weather.get("/v1/me/recent-cities", bearer: member.access)
                    #expect("\(recents)".contains("\(Self.bern)"), "and so is its recent city")
                    #expect(try await weather.get("/v1/me/favourites", bearer: install.access).0 == .unauthorized)
                    #expect(try await auth.refreshStatus(install.refresh).0 == .unauthorized)
                    #expect(try await weather.db.columnsMentioning(install.id).isEmpty)

                    (status, body) = try await auth.merge(install: install, into: member.access)
                    #expect(status == .unauthorized && body["error.code"] == "invalid_refresh_token", "a merged install is gone")

                    (status, _) = try await auth.deleteOwnAccount(bearer: member.access)
                    #expect(status == .noContent)
                    #expect(try await eventually { try await weather.get("/v1/me/favourites", bearer: member.access).0 == .unauthorized })
                    #expect(try await weather.count("SELECT count(*)::int FROM favourite_cities") == 0)
                    #expect(try await weather.count("SELECT count(*)::int FROM recent_cities") == 0)
                    #expect(try await weather.db.columnsMentioning(member.id).isEmpty)
                    #expect(try await auth.db.columnsMentioning(member.id).isEmpty)
                    let (refreshed, code) = try await auth.refreshStatus(member.refresh)
                    #expect(refreshed == .unauthorized && code == "invalid_refresh_token")
                }
            }
        }
    }
}
