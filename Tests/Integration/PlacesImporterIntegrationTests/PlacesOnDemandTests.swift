import Foundation
import PlatformHTTP
import ServiceTestSupport
import Synchronization
import TestSupport
import Testing

@testable import PlacesImporter

/// Places around the user when the app opens, and places that vanished (P1), against real Postgres, the broker
/// and a fake Overpass on loopback.
@Suite("places-importer: on-demand tiles and closed places")
struct PlacesOnDemandTests {
    static let onDemand = ["PLACES_ON_DEMAND": "true", "PLACES_NEARBY_REFRESH_MS": "100"]

    @Test("P1: a nearby list where nothing was imported queues the tile around it once, says importing, then lists its places")
    func onDemandTile() async throws {
        try await PlacesTestHarness.run(extraEnvironment: Self.onDemand) { places in
            let (alice, bob) = (try await places.token("alice"), try await places.token("bob"))
            let path = "/v1/places?lat=52.5172&lon=13.3890&radius=1000"
            var (status, body) = try await places.request(.get, path, bearer: alice)
            // The coverage is read shortly after start; until then nothing is asked for.
            if body["importing"].bool != true {
                #expect(try await eventually { try await places.request(.get, path, bearer: alice).1["importing"].bool == true })
            }
            #expect(status == .ok)
            #expect(try await places.count("SELECT count(*) FROM import_areas WHERE on_demand AND requested_by = 'alice'") == 1)
            #expect(try await places.count("SELECT count(*) FROM import_areas WHERE name = 'nearby 52.5000,13.3000'") == 1)
            // Another user in the same tile: no second tile.
            (_, body) = try await places.request(.get, "/v1/places?lat=52.55&lon=13.35&radius=500", bearer: bob)
            #expect(try await places.count("SELECT count(*) FROM import_areas WHERE on_demand") == 1)
            // The scheduler imports it like any area; once done, the list has the places and says so.
            #expect(
                try await eventually {
                    let (_, body) = try await places.request(.get, path, bearer: alice)
                    return body["importing"].bool == false && body["places"].array.contains { $0["name"].string == "Café Einstein" }
                })
            let request = try #require(places.provider.requests.first { $0.path == "/api/interpreter" })
            #expect((request.body.removingPercentEncoding ?? "").contains("52.500000,13.300000,52.600000,13.400000"), "the tile's box")
        }
    }

    @Test("X3, P1: an on-demand tile nobody asked about for PLACES_ON_DEMAND_TILE_TTL_HOURS is dropped; one still asked about stays")
    func onDemandTilesExpire() async throws {
        let environment = Self.onDemand.merging(["PLACES_ON_DEMAND_TILE_TTL_HOURS": "1", "PLACES_ON_DEMAND_EXPIRY_INTERVAL_MS": "200"]) { $1 }
        try await PlacesTestHarness.run(extraEnvironment: environment) { places in
            let (alice, bob) = (try await places.token("alice"), try await places.token("bob"))
            let berlin = "/v1/places?lat=52.5172&lon=13.3890&radius=1000", munich = "/v1/places?lat=48.1374&lon=11.5755&radius=1000"
            // Ask until each tile is queued (the coverage is read shortly after start), and no more.
            for (path, token, queued) in [(berlin, alice, 1), (munich, bob, 2)] {
                #expect(
                    try await eventually {
                        _ = try await places.request(.get, path, bearer: token)
                        return try await places.count("SELECT count(*)::int FROM import_areas WHERE on_demand") == queued
                    })
            }
            // Berlin was last asked about half an hour ago, Munich two hours ago (the TTL is one hour).
            let berlinTile = "name = 'nearby 52.5000,13.3000'", munichTile = "name = 'nearby 48.1000,11.5000'"
            _ = try await places.count("UPDATE import_areas SET last_requested_at = now() - interval '30 minutes' WHERE \(berlinTile)")
            _ = try await places.count("UPDATE import_areas SET last_requested_at = now() - interval '2 hours' WHERE \(munichTile)")
            // Someone opens the app in Berlin again: the tile is marked as asked for.
            _ = try await places.request(.get, berlin, bearer: bob)
            #expect(
                try await places.count(
                    "SELECT count(*)::int FROM import_areas WHERE \(berlinTile) AND last_requested_at > now() - interval '1 minute'") == 1)
            #expect(
                try await eventually {
                    try await places.count("SELECT count(*)::int FROM import_areas WHERE \(munichTile)") == 0
                }, "the tile nobody asked about was not dropped")
            try await Task.sleep(for: .milliseconds(600))  // three more expiry rounds
            #expect(try await places.count("SELECT count(*)::int FROM import_areas WHERE \(berlinTile)") == 1)
        }
    }

    @Test("P1: on-demand tiles are limited per user and for everyone per hour; an imported area needs none")
    func onDemandLimits() async throws {
        let limits = Self.onDemand.merging(["PLACES_ON_DEMAND_TILES_PER_USER_HOUR": "1", "PLACES_ON_DEMAND_TILES_PER_HOUR": "2"]) { $1 }
        try await PlacesTestHarness.run(extraEnvironment: limits) { places in
            let carol = try await places.token("carol")
            let first = "/v1/places?lat=10.05&lon=10.05&radius=500"
            #expect(try await eventually { try await places.request(.get, first, bearer: carol).1["importing"].bool == true })
            var (_, body) = try await places.request(.get, "/v1/places?lat=20.05&lon=20.05&radius=500", bearer: carol)
            #expect(body["importing"].bool == false, "carol's second tile this hour is refused")
            (_, body) = try await places.request(.get, "/v1/places?lat=20.05&lon=20.05&radius=500", bearer: try await places.token("dave"))
            #expect(body["importing"].bool == true, "dave's first tile is queued")
            (_, body) = try await places.request(.get, "/v1/places?lat=30.05&lon=30.05&radius=500", bearer: try await places.token("erin"))
            #expect(body["importing"].bool == false, "the third tile this hour is over the limit for everyone")
            #expect(try await places.count("SELECT count(*) FROM import_areas WHERE on_demand") == 2)
            // Inside an area an admin imported: no tile, not importing.
            try await places.importArea()
            #expect(
                try await eventually {
                    try await places.request(.get, "/v1/places?lat=52.52&lon=13.39&radius=500", bearer: carol).1["importing"].bool == false
                })
            #expect(try await places.count("SELECT count(*) FROM import_areas WHERE on_demand") == 2)
        }
    }

    @Test("P1: instances asking for the same tile together queue it once")
    func onDemandDeduplicated() async throws {
        try await PlacesTestHarness.run { places in
            let store = ImportAreaStore(client: places.db.client, logger: places.db.logger)
            let tile = OnDemandTile(latitude: -33.87, longitude: 151.21, degrees: 0.1)
            let results = try await withThrowingTaskGroup(of: OnDemandRequest.self) { group in
                for index in 0..<12 {
                    group.addTask { try await store.requestOnDemand(tile, user: "user-\(index)", perHour: 100, perUserPerHour: 10) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0 == .queued }.count == 1 && results.filter { $0 == .alreadyQueued }.count == 11)
            #expect(try await places.count("SELECT count(*) FROM import_areas WHERE on_demand") == 1)
        }
    }

    @Test("P1: a place gone from the provider at its area's next import is closed (not listed, event says so) and reopens when back")
    func vanishedPlacesClose() async throws {
        let elements = Mutex(PlacesFixtures.defaultElements)
        let provider: FakeHTTPServer.Handler = { request in
            if request.path == "/api/interpreter" { return .init(body: PlacesFixtures.overpass(elements: elements.withLock { $0 })) }
            return await PlacesTestHarness.defaultProvider(request)
        }
        try await PlacesTestHarness.run(extraEnvironment: ["PLACES_NEARBY_REFRESH_MS": "100"], provider: provider) { places in
            let user = try await places.token("frank")
            let list = "/v1/places?lat=52.5172&lon=13.3890&radius=3000&pageSize=50"
            let names: @Sendable () async throws -> [String] = {
                try await places.request(.get, list, bearer: user).1["places"].array.compactMap { $0["name"].string }
            }
            try await places.importArea()
            // A place a user added in the area is never closed by an import.
            let (added, _) = try await places.request(
                .post, "/v1/places", json: ["name": "Frank's Desk", "latitude": 52.5190, "longitude": 13.3950, "category": "coworking"],
                bearer: user)
            #expect(added == .created)
            #expect(
                try await eventually {
                    let listed = try await names()
                    return listed.contains("Café Einstein") && listed.contains("Frank's Desk")
                })

            elements.withLock { $0.removeAll { $0 == PlacesFixtures.einstein } }
            let second = try await places.importArea()
            #expect(second["lastStatus"].string == "succeeded")
            #expect(try await places.count("SELECT count(*) FROM places WHERE closed_at IS NOT NULL") == 1)
            #expect(try await places.count("SELECT count(*) FROM places WHERE closed_at IS NOT NULL AND name = 'Café Einstein'") == 1)
            #expect(try await eventually { !(try await names().contains("Café Einstein")) }, "closed places leave the nearby list")
            let listed = try await names()
            #expect(listed.contains("Frank's Desk"))
            let closedEvents = try await places.count(
                """
                SELECT count(*) FROM outbox WHERE convert_from(payload, 'UTF8') LIKE '%"closed":true%'
                    AND key = (SELECT upper(id::text) FROM places WHERE name = 'Café Einstein')
                """)
            #expect(closedEvents == 1, "one place.upserted says it closed")

            elements.withLock { $0.append(PlacesFixtures.einstein) }
            try await places.importArea()
            #expect(try await places.count("SELECT count(*) FROM places WHERE closed_at IS NOT NULL") == 0, "listed again: reopened")
            #expect(try await eventually { try await names().contains("Café Einstein") })
        }
    }
}

extension PlacesOnDemandTests {
    @Test("P1: a Yelp search cut short by its result cap closes nothing of Yelp's; a complete one does")
    func cappedYelpSearchClosesNothing() async throws {
        // (businesses on the page, the total Yelp reports): one full page of 50 while Yelp knows 500 is a capped search.
        let page = Mutex((includeYelpOnly: true, total: 500))
        let provider: FakeHTTPServer.Handler = { request in
            guard request.path == "/v3/businesses/search" else { return await PlacesTestHarness.defaultProvider(request) }
            let (includeYelpOnly, total) = page.withLock { $0 }
            let first =
                includeYelpOnly
                ? PlacesFixtures.yelpBusiness(id: "yelp-only", name: "Yelp Only", latitude: 52.5150, longitude: 13.3850)
                : PlacesFixtures.yelpBusiness(id: "other", name: "Another Cafe", latitude: 52.5151, longitude: 13.3851)
            let rest: [String] = (1..<50).map { (index: Int) -> String in
                PlacesFixtures.yelpBusiness(id: "f\(index)", name: "F \(index)", latitude: 52.512 + Double(index) / 10_000, longitude: 13.39)
            }
            return .init(body: PlacesFixtures.yelp(businesses: [first] + rest, total: total))
        }
        let environment = ["PLACES_YELP_API_KEY": "yelp-secret", "PLACES_YELP_RESULT_CAP": "50"]
        try await PlacesTestHarness.run(extraEnvironment: environment, provider: provider) { places in
            try await places.importArea()
            #expect(try await places.count("SELECT count(*) FROM places WHERE name = 'Yelp Only'") == 1)
            page.withLock { $0.includeYelpOnly = false }
            try await places.importArea()
            #expect(try await places.count("SELECT count(*) FROM places WHERE closed_at IS NOT NULL") == 0, "a capped search judges nothing")
            page.withLock { $0.total = 50 }
            try await places.importArea()
            #expect(try await places.count("SELECT count(*) FROM places WHERE closed_at IS NOT NULL AND name = 'Yelp Only'") == 1)
        }
    }
}
