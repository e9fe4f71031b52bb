import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// U8 through auth, the broker and places-importer: a member's saved places, pins, ratings and added places
/// follow an install into its account; deleted, the personal ones go and the shared ones stay without their author.
@Suite("Account lifecycle: places-importer")
struct PlacesAccountLifecycleTests {
    nonisolated(unsafe) static let rating: [String: Any] = [
        "noise": 2, "outlets": 4, "wifi": 5, "cost": 3, "seating": 4, "menuOptions": ["drinks-only"], "businessType": "coffee-shop",
        "notes": "quiet upstairs",
    ]

    @Test(
        "U9 (P2-P4): pins, saved places, ratings and added places follow an install into its account; deletion keeps the rating and the place anonymised"
    )
    func mergeThenDelete() async throws {
        let idp = FakeIdentityProvider()
        try await idp.serve {
            try await LifecycleAuth.run(oidc: idp, extraEnvironment: LifecycleAuth.trustingInstalls) { auth, users in
                try await PlacesTestHarness.run(extraEnvironment: ["PLACES_USERS_TOPIC": users], tokens: auth.tokens) { places in
                    let install = try await auth.install("places")
                    var (status, body) = try await places.request(
                        .post, "/v1/places", json: ["name": "Kitchen Desk", "latitude": 52.5, "longitude": 13.4, "category": "other"],
                        bearer: install.access)
                    #expect(status == .created, "\(body.raw ?? "")")
                    let place = try #require(body["id"].string)
                    (status, body) = try await places.request(.put, "/v1/places/\(place)/rating", json: Self.rating, bearer: install.access)
                    #expect(status.code < 300, "\(body.raw ?? "")")
                    #expect(try await places.request(.put, "/v1/places/\(place)/saved", bearer: install.access).0.code < 300)
                    #expect(try await places.request(.put, "/v1/places/\(place)/pin", json: ["colour": "green"], bearer: install.access).0.code < 300)

                    let member = try await auth.signIn(idp, subject: "erin-\(UUID())", app: "places")
                    #expect(try await auth.merge(install: install, into: member.access).0 == .ok)
                    let byMember = "user_id = '\(member.id)'"
                    #expect(
                        try await eventually {
                            try await places.count("SELECT count(*)::int FROM saved_places WHERE \(byMember)") == 1
                        })
                    #expect(try await places.count("SELECT count(*)::int FROM pin_colours WHERE \(byMember)") == 1)
                    #expect(try await places.count("SELECT count(*)::int FROM place_ratings WHERE \(byMember)") == 1)
                    #expect(try await places.count("SELECT count(*)::int FROM places WHERE added_by = '\(member.id)'") == 1)
                    #expect(try await places.request(.get, "/v1/places/\(place)", bearer: install.access).0 == .unauthorized)
                    #expect(try await places.db.columnsMentioning(install.id).isEmpty)

                    #expect(try await auth.deleteOwnAccount(bearer: member.access).0 == .noContent)
                    #expect(try await eventually { try await places.request(.get, "/v1/places/\(place)", bearer: member.access).0 == .unauthorized })
                    #expect(try await places.count("SELECT count(*)::int FROM saved_places") == 0)
                    #expect(try await places.count("SELECT count(*)::int FROM pin_colours") == 0)
                    #expect(
                        try await places.count("SELECT count(*)::int FROM place_ratings WHERE user_id LIKE 'erased:%'") == 1,
                        "the rating stays, named by nobody")
                    #expect(try await places.count("SELECT count(*)::int FROM places WHERE added_by IS NULL AND name = 'Kitchen Desk'") == 1)
                    #expect(try await places.db.columnsMentioning(member.id).isEmpty)
                }
            }
        }
    }
}
