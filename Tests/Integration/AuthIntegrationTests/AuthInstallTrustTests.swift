import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// What costs others needs a trusted account : with tokens from auth as the apps get them, a new install is
/// refused (403 `account_not_trusted`) a fortune teller's application, a rating, a place, an address look-up and a
/// poll answer, and nothing is stored; an install attested through Play Integrity does each at once.
@Suite("auth: install trust across the services")
struct AuthInstallTrustTests {
    /// An install of `app`: attested through `fake` when `attested`, else as a plain first launch.
    static func install(_ auth: AuthTestHarness, _ app: String, attested fake: FakePlayIntegrity? = nil) async throws -> String {
        let installId = "android-\(UUID().uuidString.prefix(8))"
        let attestation = fake.map { $0.issue(.init(package: "com.example.\(app)", nonce: FakePlayIntegrity.nonce(for: installId))) }
        let (status, body) = try await auth.install(app, installId, attestation: attestation)
        #expect(status == .created, "\(body)")
        return try #require(body["accessToken"])
    }

    static func refusedUntrusted(_ answer: (status: Int, code: String?), _ what: String) {
        #expect(answer.status == 403 && answer.code == "account_not_trusted", "\(what): \(answer)")
    }

    @Test("U8, B6: a new install's partner application is refused (no admin is mailed); an attested install's is filed")
    func partnerApplicationNeedsTrust() async throws {
        let fake = FakePlayIntegrity()
        try await withFakeHTTPServer(fake.handler) { google in
            try await AuthTestHarness.run(extraEnvironment: AuthAttestationTests.environment(google, fake)) { auth in
                try await BookingTestHarness.run(tokens: auth.tokens) { booking in
                    let application: [String: Any] = [
                        "name": "Madame Trust", "description": "Tarot", "contact": "LINE: trust", "languages": ["th"],
                        "timeZone": "Asia/Bangkok", "termsVersion": "2026-11",
                    ]
                    let fresh = try await Self.install(auth, "horoscope")
                    var (status, body) = try await booking.request(.post, "/v1/me/partner-application", json: application, bearer: fresh)
                    Self.refusedUntrusted((Int(status.code), body["error"]["code"].string), "new install")
                    #expect(try await booking.count("SELECT count(*)::int FROM partner_applications") == 0)
                    let applied = "SELECT count(*)::int FROM outbox WHERE event_type = 'partner.applied'"
                    #expect(try await booking.count(applied) == 0, "nothing published for auth to mail")

                    let attested = try await Self.install(auth, "horoscope", attested: fake)
                    (status, body) = try await booking.request(.post, "/v1/me/partner-application", json: application, bearer: attested)
                    #expect(status == .created && body["status"].string == "pending", "\(body.raw ?? "")")
                    #expect(try await booking.count(applied) == 1)
                }
            }
        }
    }

    @Test("U8, P3, P4, N3: a new install rates, adds, looks up and answers nothing; an attested install's rating counts")
    func ratingNeedsTrust() async throws {
        let fake = FakePlayIntegrity()
        try await withFakeHTTPServer(fake.handler) { google in
            try await AuthTestHarness.run(extraEnvironment: AuthAttestationTests.environment(google, fake)) { auth in
                try await PlacesTestHarness.run(tokens: auth.tokens) { places in
                    try await places.importArea()
                    let place = try #require(try await places.db.text("SELECT id::text FROM places WHERE review = 'approved' LIMIT 1"))
                    let rating: [String: Any] = [
                        "noise": 2, "outlets": 4, "wifi": 5, "cost": 3, "seating": 4, "menuOptions": ["drinks-only"], "businessType": "coffee-shop",
                        "notes": "",
                    ]
                    let fresh = try await Self.install(auth, "places")
                    var (status, body) = try await places.request(.put, "/v1/places/\(place)/rating", json: rating, bearer: fresh)
                    Self.refusedUntrusted((Int(status.code), body["error"]["code"].string), "rating")
                    (status, body) = try await places.request(
                        .post, "/v1/places", json: ["name": "Kitchen Desk", "latitude": 52.52, "longitude": 13.4, "category": "other"], bearer: fresh)
                    Self.refusedUntrusted((Int(status.code), body["error"]["code"].string), "a place")
                    (status, body) = try await places.request(.get, "/v1/places/lookup?address=Rudi-Dutschke-Str.%2023", bearer: fresh)
                    Self.refusedUntrusted((Int(status.code), body["error"]["code"].string), "a look-up")
                    #expect(try await places.count("SELECT count(*)::int FROM place_ratings") == 0)
                    #expect(try await places.count("SELECT count(*)::int FROM places WHERE review = 'pending'") == 0)
                    #expect(!places.provider.requests.contains { $0.path == "/search" }, "no look-up reached Nominatim")

                    let attested = try await Self.install(auth, "places", attested: fake)
                    (status, body) = try await places.request(.put, "/v1/places/\(place)/rating", json: rating, bearer: attested)
                    #expect(status == .ok && body["ratings"]["count"].int == 1, "\(body.raw ?? "")")
                }
                try await AnalyticsTestHarness.run(tokens: auth.tokens) { analytics in
                    let answer: [String: Any] = ["answers": [["questionId": "benefit", "answer": true]]]
                    var (status, body) = try await analytics.request(
                        .post, "/v1/poll/answers", json: answer, bearer: try await Self.install(auth, "weather"))
                    Self.refusedUntrusted((Int(status.code), body["error"]["code"].string), "a poll answer")
                    (status, body) = try await analytics.request(
                        .post, "/v1/poll/answers", json: answer, bearer: try await Self.install(auth, "weather", attested: fake))
                    #expect(status == .created, "\(body.raw ?? "")")
                }
            }
        }
    }
}
