import Foundation
import HTTPTypes
import ServiceTestSupport
import TestSupport
import Testing

@testable import PlacesImporter

/// X3 with P4: a member's place is shown to nobody else, nor published, until an admin approves it.
@Suite("Member-added places wait for an admin's review")
struct PlacesReviewTests {
    /// Both nearby sources: the in-memory index and PostGIS must hide the same places.
    @Test(
        "X3, P4: a pending place is the adder's alone; approval lists and publishes it; rejection hides it for good",
        arguments: ["memory", "postgis"])
    func pendingUntilApproved(source: String) async throws {
        try await PlacesTestHarness.run(extraEnvironment: ["PLACES_NEARBY_SOURCE": source]) { places in
            let (adder, other, admin) = (try await places.token(), try await places.token(), try await places.token(role: .admin))
            func listed(_ token: String, box: Bool = false) async throws -> [String] {
                let path =
                    box
                    ? "/v1/places/in-box?south=52.49&west=13.39&north=52.51&east=13.41"
                    : "/v1/places?lat=52.5&lon=13.4&radius=500"
                let (status, body) = try await places.request(.get, path, bearer: token)
                #expect(status == .ok)
                return body["places"].array.compactMap { $0["id"].string }
            }
            func add(_ name: String) async throws -> String {
                let (status, body) = try await places.request(
                    .post, "/v1/places", json: ["name": name, "latitude": 52.5001, "longitude": 13.4001, "category": "cafe"], bearer: adder)
                #expect(status == .created && body["review"].string == "pending", "\(body.raw ?? "")")
                return body["id"].string ?? ""
            }
            let kept = try await add("Corner Desk")
            let refused = try await add("Spam Desk")

            #expect(Set(try await listed(adder)) == [kept, refused], "the adder sees their own places")
            let (otherNear, otherBox) = (try await listed(other), try await listed(other, box: true))
            #expect(otherNear.isEmpty && otherBox.isEmpty, "nobody else does")
            for path in ["/v1/places/\(kept)", "/v1/places/\(kept)/saved"] {
                let (status, body) = try await places.request(path.hasSuffix("saved") ? .put : .get, path, bearer: other)
                #expect(status == .notFound && body["error"]["code"].string == "place_not_found", "\(path)")
            }
            #expect(try await places.count("SELECT count(*) FROM outbox WHERE event_type = 'place.upserted'") == 0, "nothing published")

            var (status, body) = try await places.request(.get, "/v1/admin/places/pending", bearer: admin)
            #expect(status == .ok && body["places"].array.compactMap { $0["id"].string } == [kept, refused])
            (status, _) = try await places.request(.get, "/v1/admin/places/pending", bearer: other)
            #expect(status == .forbidden)
            (status, _) = try await places.request(.put, "/v1/admin/places/\(kept)/review", json: ["decision": "approve"], bearer: other)
            #expect(status == .forbidden, "a member cannot approve their own or anyone's place")

            (status, body) = try await places.request(.put, "/v1/admin/places/\(kept)/review", json: ["decision": "approve"], bearer: admin)
            #expect(status == .ok && body["review"].string == "approved")
            (status, body) = try await places.request(.put, "/v1/admin/places/\(refused)/review", json: ["decision": "reject"], bearer: admin)
            #expect(status == .ok && body["review"].string == "rejected")
            (status, body) = try await places.request(.put, "/v1/admin/places/\(refused)/review", json: ["decision": "approve"], bearer: admin)
            #expect(status == .conflict && body["error"]["code"].string == "already_reviewed")
            (status, _) = try await places.request(
                .put, "/v1/admin/places/\(UUID().uuidString)/review", json: ["decision": "approve"], bearer: admin)
            #expect(status == .notFound)

            let (approvedNear, approvedBox) = (try await listed(other), try await listed(other, box: true))
            #expect(approvedNear == [kept] && approvedBox == [kept])
            #expect(try await listed(adder) == [kept], "a rejected place is listed for nobody")
            (status, body) = try await places.request(.get, "/v1/places/\(refused)", bearer: adder)
            #expect(status == .ok && body["place"]["review"].string == "rejected", "its adder can still see what became of it")
            #expect(
                try await places.count(
                    "SELECT count(*) FROM outbox WHERE event_type = 'place.upserted' AND key = '\(kept.uppercased())'") == 1,
                "approval published the place once")
            #expect(try await places.count("SELECT count(*) FROM outbox WHERE event_type = 'place.upserted'") == 1)
            (status, body) = try await places.request(.get, "/v1/admin/places/pending", bearer: admin)
            #expect(body["places"].array.isEmpty)
        }
    }
}
