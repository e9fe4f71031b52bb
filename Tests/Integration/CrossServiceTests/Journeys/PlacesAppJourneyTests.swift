import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// U8: the Where-I-Work app from nothing but its name and an install id, through auth, places-importer and
/// analytics-aggregator (the poll).
@Suite("App journey: places")
struct PlacesAppJourneyTests {
    @Test("U9 (P2-P4, N3, U8, U9): an install reaches the map, adds a place, rates, pins and saves it, answers the poll and edits its profile")
    func placesAppJourney() async throws {
        try await LifecycleAuth.run(extraEnvironment: LifecycleAuth.trustingInstalls) { auth, users in
            try await PlacesTestHarness.run(extraEnvironment: ["PLACES_USERS_TOPIC": users], tokens: auth.tokens) { places in
                try await AnalyticsTestHarness.run(extraEnvironment: ["ANALYTICS_USERS_TOPIC": users], tokens: auth.tokens) { analytics in
                    let app = try await auth.install("places")

                    var (status, body) = try await places.request(.get, "/v1/places?lat=52.5&lon=13.4&radius=2000", bearer: app.access)
                    #expect(status == .ok, "map: \(body.raw ?? "")")
                    (status, body) = try await places.request(
                        .post, "/v1/places", json: ["name": "Journey Desk", "latitude": 52.5, "longitude": 13.4, "category": "coworking"],
                        bearer: app.access)
                    #expect(status == .created, "add: \(body.raw ?? "")")
                    let place = try #require(body["id"].string)
                    (status, body) = try await places.request(
                        .put, "/v1/places/\(place)/rating", json: PlacesAccountLifecycleTests.rating, bearer: app.access)
                    #expect(status.code < 300, "rate: \(body.raw ?? "")")
                    (status, body) = try await places.request(.put, "/v1/places/\(place)/pin", json: ["colour": "green"], bearer: app.access)
                    #expect(status.code < 300, "pin: \(body.raw ?? "")")
                    (status, body) = try await places.request(.put, "/v1/places/\(place)/saved", bearer: app.access)
                    #expect(status.code < 300, "save: \(body.raw ?? "")")
                    (status, body) = try await places.request(.get, "/v1/places/\(place)", bearer: app.access)
                    #expect(
                        status == .ok && body["place"]["name"].string == "Journey Desk" && body["place"]["pin"].string == "green"
                            && body["myRating"]["wifi"].int == 5, "own place, pending review, is the member's to see: \(body.raw ?? "")")
                    (status, body) = try await places.request(.get, "/v1/places?lat=52.5&lon=13.4&radius=2000", bearer: app.access)
                    #expect(status == .ok && "\(body.raw ?? "")".contains(place), "the map shows the member's own place with its pin")
                    (status, body) = try await places.request(.delete, "/v1/places/\(place)/saved", bearer: app.access)
                    #expect(status.code < 300, "unsave: \(body.raw ?? "")")
                    (status, body) = try await places.request(.delete, "/v1/places/\(place)/pin", bearer: app.access)
                    #expect(status.code < 300, "unpin: \(body.raw ?? "")")

                    (status, body) = try await analytics.request(.get, "/v1/poll", bearer: app.access)
                    #expect(status == .ok, "poll: \(body.raw ?? "")")
                    (status, body) = try await analytics.request(
                        .post, "/v1/poll/answers", json: ["answers": [["questionId": "benefit", "answer": true]]], bearer: app.access)
                    #expect(status.code < 300, "answer: \(body.raw ?? "")")

                    let profile = try JSONSerialization.data(withJSONObject: ["displayName": "Nok", "language": "en"])
                    let (changed, me) = try await auth.request(.patch, "/v1/me", body: profile, bearer: app.access)
                    #expect(changed == .ok && me["account.displayName"] == "Nok", "\(me)")
                }
            }
        }
    }
}
