import Foundation
import PlatformHTTP
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
    func test_P1_onDemandTile() async throws {
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
            #expect(try await eventually {
                let (_, body) = try await places.request(.get, path, bearer: alice)
                return body["importing"].bool == false && body["places"].array.contains { $0["name"].string == "Café Einstein" }
            })
            let request = try #require(places.provider.requests.first { $0.path == "/api/interpreter" })
            #expect((request.body.removingPercentEncoding ?? "").contains("52.500000,13.300000,52.600000,13.400000"), "the tile's box")
        }
    }

    @Test("X3, P1: an on-demand tile nobody asked about for PLACES_ON_DEMAND_TILE_TTL_HOURS is dropped; one still asked about stays")
    func test_X3_onDemandTilesExpire() async throws {
        let environment = Self.onDemand.merging(["PLACES_ON_DEMAND_TILE_TTL_HOURS": "1", "PLACES_ON_DEMAND_EXPIRY_INTERVAL_MS": "200"]) { $1 }
        try await PlacesTestHarness.run(extraEnvironment: environment) { places in
            let (alice, bob) = (try await places.token("alice"), try await places.token("bob"))
            let berlin = "/v1/places?lat=52.5172&lon=13.3890&radius=1000", munich = "/v1/places?lat=48.1374&lon=11.5755&radius=1000"
            // Ask until each tile is queued (the coverage is read shortly after start), and no more.
            for (path, token, queued) in [(berlin, alice, 1), (munich, bob, 2)] {
                #expect(try await eventually {
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
            #expect(try await places.count(
                "SELECT count(*)::int FROM import_areas WHERE \(berlinTile) AND last_requested_at > now() - interval '1 minute'") == 1)
            #expect(try await eventually {
                try await places.count("SELECT count(*)::int FROM import_areas WHERE \(munichTile)") == 0
            }, "the tile nobody asked about was not dropped")
            try await Task.sleep(for: .milliseconds(600))  // three more expiry rounds
            #expect(try await places.count("SELECT count(*)::int FROM import_areas WHERE \(berlinTile)") == 1)
        }
    }

    @Test("P1: on-demand tiles are limited per user and for everyone per hour; an imported area needs none")
    func test_P1_onDemandLimits() async throws {
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
            #expect(try await eventually {
                try await places.request(.get, "/v1/places?lat=52.52&lon=13.39&radius=500", bearer: carol).1["importing"].bool == false
            })
            #expect(try await places.count("SELECT count(*) FROM import_areas WHERE on_demand") == 2)
        }
    }

    @Test("P1: instances asking for the same tile together queue it once")
    func test_P1_onDemandDeduplicated() async throws {
        try await PlacesTestHarness.run { places in
            let store = ImportAreaStore(client: places.db.client, logger: places.db.logger)
            let tile = OnDemandTile(latitude: -33.87, longitude: 151.21, degrees: 0.1)
            let results = try await withThrowingTaskGroup(of: ImportAreaStore.OnDemandRequest.self) { group in
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
    func test_P1_vanishedPlacesClose() async throws {
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
            #expect(try await eventually {
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
    func test_P1_cappedYelpSearchClosesNothing() async throws {
        // (businesses on the page, the total Yelp reports): one full page of 50 while Yelp knows 500 is a capped search.
        let page = Mutex((includeYelpOnly: true, total: 500))
        let provider: FakeHTTPServer.Handler = { request in
            guard request.path == "/v3/businesses/search" else { return await PlacesTestHarness.defaultProvider(request) }
            let (includeYelpOnly, total) = page.withLock { $0 }
            let first = includeYelpOnly
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

@Suite("places-importer: on-demand tiles and closing, as rules")
struct PlacesOnDemandRuleTests {
    static func key(_ provider: String, _ id: String) -> SourceKey { SourceKey(provider: provider, providerId: id) }

    @Test("P1: a place closes only when no provider lists it and every one of its providers answered completely")
    func test_P1_closureRules() {
        let (gone, seenAgain, mixed, unjudged, closedBack, closedStill) = (UUID(), UUID(), UUID(), UUID(), UUID(), UUID())
        let closure = PlaceClosure(
            known: [
                .init(id: gone, isClosed: false, sources: [Self.key("osm", "1")]),
                .init(id: seenAgain, isClosed: false, sources: [Self.key("osm", "2")]),
                .init(id: mixed, isClosed: false, sources: [Self.key("osm", "3"), Self.key("yelp", "c")]),
                .init(id: unjudged, isClosed: false, sources: [Self.key("osm", "4"), Self.key("yelp", "d")]),
                .init(id: closedBack, isClosed: true, sources: [Self.key("osm", "5")]),
                .init(id: closedStill, isClosed: true, sources: [Self.key("osm", "6")]),
            ],
            seen: [Self.key("osm", "2"), Self.key("yelp", "c"), Self.key("osm", "5")],
            // Yelp's search was capped this run: it cannot say a place is gone.
            judgedProviders: ["osm"])
        #expect(closure.closing == [gone], "mixed: Yelp still lists it; unjudged: Yelp's answer was incomplete")
        #expect(closure.reopening == [closedBack])
        let everyoneJudged = PlaceClosure(
            known: [.init(id: unjudged, isClosed: false, sources: [Self.key("osm", "4"), Self.key("yelp", "d")])], seen: [],
            judgedProviders: ["osm", "yelp"])
        #expect(everyoneJudged.closing == [unjudged])
    }

    @Test("P1: on-demand tiles are named alike on every instance, cover their point, and stay on the globe")
    func test_P1_tiles() {
        let tile = OnDemandTile(latitude: 52.5172, longitude: 13.389, degrees: 0.1)
        #expect(tile.areaName == "nearby 52.5000,13.3000")
        #expect(abs(tile.box.south - 52.5) < 1e-9 && abs(tile.box.east - 13.4) < 1e-9)
        #expect(OnDemandTile(box: tile.box, degrees: 0.1) == tile)
        let corner = OnDemandTile(latitude: 90, longitude: 180, degrees: 0.1)
        #expect(corner.box.north <= 90 && corner.box.east <= 180 && corner.box.isValid)
        let southWest = OnDemandTile(latitude: -90, longitude: -180, degrees: 0.1)
        #expect(southWest.row == 0 && southWest.column == 0)
        let negative = OnDemandTile(latitude: -33.87, longitude: -0.05, degrees: 0.1)
        #expect(negative.box.south <= -33.87 && negative.box.north > -33.87 && negative.box.west <= -0.05 && negative.box.east > -0.05)
    }

    @Test("P1: coverage: configured areas, queued tiles, refusals that wait, and nothing before the first load")
    func test_P1_coverage() {
        let coverage = ImportCoverage(tileDegrees: 0.1, retryAfterRefusal: .seconds(60))
        #expect(coverage.status(latitude: 1, longitude: 1) == .unknown)
        coverage.load([
            .init(box: GeoBox(south: 52.4, west: 13.2, north: 52.7, east: 13.6), onDemand: false, imported: true),
            .init(box: GeoBox(south: 48.1, west: 11.5, north: 48.2, east: 11.6), onDemand: true, imported: false),
        ])
        #expect(coverage.status(latitude: 52.52, longitude: 13.4) == .covered(importing: false))
        #expect(coverage.status(latitude: 48.15, longitude: 11.55) == .covered(importing: true))
        let paris = OnDemandTile(latitude: 48.85, longitude: 2.35, degrees: 0.1)
        #expect(coverage.status(latitude: 48.85, longitude: 2.35) == .uncovered(paris))
        let now = ContinuousClock.now
        coverage.noteRefused(paris, now: now)
        #expect(coverage.status(latitude: 48.85, longitude: 2.35, now: now + .seconds(30)) == .covered(importing: false))
        #expect(coverage.status(latitude: 48.85, longitude: 2.35, now: now + .seconds(61)) == .uncovered(paris))
        coverage.noteQueued(paris)
        #expect(coverage.status(latitude: 48.85, longitude: 2.35) == .covered(importing: true))
        // A user over their own limit is not asked about again until the wait has passed.
        coverage.noteRefused(user: "carol", now: now)
        #expect(coverage.isRefused(user: "carol", now: now + .seconds(30)) && !coverage.isRefused(user: "dave", now: now))
        #expect(!coverage.isRefused(user: "carol", now: now + .seconds(61)))
    }
}

@Suite("places-importer: provider values made to fit (P1, P4)")
struct PlacesProviderValueTests {
    @Test("P4: a looked-up website without a scheme gets https, other schemes are dropped; P1: no Yelp site of any country is a website")
    func test_P4_lookupValuesFitTheSave() {
        #expect(NominatimClient.website("www.cafe.example") == "https://www.cafe.example")
        #expect(NominatimClient.website("http://cafe.example/menu") == "http://cafe.example/menu")
        #expect(NominatimClient.website("ftp://cafe.example") == nil && NominatimClient.website("call us") == nil)
        #expect(YelpProvider.website("https://www.yelp.de/biz/x") == nil && YelpProvider.website("https://m.yelp.co.uk/biz/x") == nil)
        #expect(YelpProvider.website("https://yelp.com/biz/x") == nil)
        #expect(YelpProvider.website("https://cafe.example") == "https://cafe.example")
        #expect(YelpProvider.website("https://yelpcafe.example") == "https://yelpcafe.example")
    }
}
