import Foundation
import PlatformEvents
import ServiceTestSupport
import Synchronization
import TestSupport
import Testing

@testable import PlacesImporter

/// Imports from fake Overpass and Yelp servers on loopback into PostGIS and the broker (P1).
@Suite("places-importer: imports")
struct PlacesImportTests {
    @Test("P1: an import creates named places from Overpass (nodes and way centres) and one place.upserted event each")
    func importCreatesPlacesAndEvents() async throws {
        try await PlacesTestHarness.run { places in
            let area = try await places.importArea()
            #expect(area["lastStatus"].string == "succeeded" && area["created"].int == 4 && area["tilesTotal"].int == 1)
            #expect(try await places.count("SELECT count(*) FROM places") == 4, "the unnamed café is skipped")
            let request = try #require(places.provider.requests.first { $0.path == "/api/interpreter" })
            #expect(request.method == "POST" && request.headers["user-agent"]?.contains("places-importer") == true)
            let query = request.body.removingPercentEncoding ?? ""
            #expect(query.contains("[out:json]") && query.contains("52.510000,13.380000,52.530000,13.410000") && query.contains("out center tags"))
            let consumer = try makeConsumer(topics: [places.topic], group: "check-\(uniqueSuffix())", startPosition: .beginning)
            let messages = try await collect(4, from: consumer)
            await consumer.close()
            #expect(messages.count == 4)
            let events = try messages.map { try EventCoding.decoder.decode(EventEnvelope<PlaceUpserted>.self, from: Data($0.value)) }
            let library = try #require(events.first { $0.payload.name == "Staatsbibliothek zu Berlin" })
            #expect(library.payload.category == .library && library.payload.latitude == 52.5178 && library.payload.sources == ["osm:way/25380520"])
            #expect(library.key == library.payload.placeId.uuidString)
            let einstein = try #require(events.first { $0.payload.name == "Café Einstein" })
            #expect(einstein.payload.address == "Unter den Linden 42, 10117 Berlin" && einstein.payload.openingHours == "Mo-Su 08:00-22:00")
        }
    }

    @Test("P1: importing the same data again changes nothing and publishes nothing")
    func reimportIsIdempotent() async throws {
        try await PlacesTestHarness.run { places in
            try await places.importArea()
            let events = try await places.count("SELECT count(*) FROM outbox")
            let second = try await places.importArea()
            #expect(second["lastStatus"].string == "succeeded")
            #expect(second["created"].int == 0 && second["changed"].int == 0 && second["unchanged"].int == 4)
            #expect(try await places.count("SELECT count(*) FROM places") == 4)
            #expect(try await places.count("SELECT count(*) FROM outbox") == events)
        }
    }

    @Test("P1: a place seen by Overpass and Yelp a few metres apart with the same name is one place; Yelp pages by offset with the key")
    func crossProviderMatchAndYelpPaging() async throws {
        // Yelp knows two fillers' own sites; one of them is only a Yelp page, which is not a website.
        let sites: [Int: String] = [2: "https://filler-two.example", 3: "https://www.yelp.com/biz/filler-3"]
        let fillers: [String] = (1..<50).map { (index: Int) -> String in
            PlacesFixtures.yelpBusiness(
                id: "filler-\(index)", name: "Filler \(index)", latitude: 52.512 + Double(index) / 10_000, longitude: 13.39,
                businessURL: sites[index])
        }
        let yelpPages = [
            // The first page is full, so the importer asks for the next one.
            PlacesFixtures.yelp(
                businesses: [PlacesFixtures.yelpBusiness(id: "cafe-einstein", name: "CAFE EINSTEIN", latitude: 52.51712, longitude: 13.38890)]
                    + fillers,
                total: 55),
            PlacesFixtures.yelp(
                businesses: [PlacesFixtures.yelpBusiness(id: "far-away", name: "Outside The Tile", latitude: 52.60, longitude: 13.39)],
                total: 55),
        ]
        try await PlacesTestHarness.run(
            extraEnvironment: ["PLACES_YELP_API_KEY": "yelp-secret"],
            provider: { request in
                switch request.path {
                case "/v3/businesses/search": .init(body: yelpPages[(Int(request.query["offset"] ?? "0") ?? 0) / 50 % 2])
                default: await PlacesTestHarness.defaultProvider(request)
                }
            }
        ) { places in
            let area = try await places.importArea()
            #expect(area["lastStatus"].string == "succeeded", "\(area["lastError"].string ?? "")")
            let yelpRequests = places.provider.requests.filter { $0.path == "/v3/businesses/search" }
            #expect(yelpRequests.map { $0.query["offset"] } == ["0", "50"])
            #expect(yelpRequests.allSatisfy { $0.headers["authorization"] == "Bearer yelp-secret" && $0.query["limit"] == "50" })
            #expect(try await places.count("SELECT count(*) FROM places WHERE match_name = 'cafeeinstein'") == 1)
            #expect(
                try await places.count(
                    "SELECT count(*) FROM place_sources s JOIN places p ON p.id = s.place_id WHERE p.match_name = 'cafeeinstein'") == 2)
            #expect(try await places.count("SELECT count(*) FROM places WHERE name = 'Outside The Tile'") == 0)
            #expect(
                try await places.count("SELECT count(*) FROM places WHERE website LIKE '%yelp.com%'") == 0,
                "a Yelp page is not the business's website")
            #expect(try await places.count("SELECT count(*) FROM places WHERE name = 'Filler 1' AND website IS NULL") == 1)
            #expect(
                try await places.count("SELECT count(*) FROM places WHERE name = 'Filler 2' AND website = 'https://filler-two.example'") == 1,
                "the business's own site when Yelp has one")
            #expect(try await places.count("SELECT count(*) FROM places") == 4 + 49)
        }
    }

    @Test("P1: a 429 with Retry-After is waited out, then the import succeeds")
    func retryAfterHonoured() async throws {
        let calls = Mutex<[ContinuousClock.Instant]>([])
        try await PlacesTestHarness.run(provider: { request in
            guard request.path == "/api/interpreter" else { return await PlacesTestHarness.defaultProvider(request) }
            let number = calls.withLock {
                $0.append(.now); return $0.count
            }
            if number == 1 { return .init(status: 429, headers: ["Retry-After": "1"], body: "rate_limited") }
            return .init(body: PlacesFixtures.overpass())
        }) { places in
            let area = try await places.importArea()
            #expect(area["lastStatus"].string == "succeeded" && area["created"].int == 4)
            let times = calls.withLock { $0 }
            #expect(times.count == 2)
            if times.count == 2 { #expect(times[1] - times[0] >= .milliseconds(950)) }
        }
    }

    @Test("P1: a large area is tiled; malformed JSON fails the import clearly and keeps the tiles already imported")
    func tilingAndMalformedAnswer() async throws {
        let tiles = Mutex(0)
        try await PlacesTestHarness.run(
            extraEnvironment: ["PLACES_TILE_MILLIDEGREES": "10", "PLACES_PROVIDER_MAX_ATTEMPTS": "1"],
            provider: { request in
                guard request.path == "/api/interpreter" else { return await PlacesTestHarness.defaultProvider(request) }
                let number = tiles.withLock {
                    $0 += 1; return $0
                }
                if number == 1 { return .init(body: PlacesFixtures.overpass(elements: [PlacesFixtures.einstein])) }
                if number == 2 { return .init(body: PlacesFixtures.overpass(elements: [PlacesFixtures.balzac])) }
                return .init(body: #"{"version":0.6,"elements":[{"type":"node","id":"#)
            }
        ) { places in
            // 0.02° × 0.03° in tiles of 0.01°: six tiles; the third answers garbage.
            let area = try await places.importArea(south: 52.51, west: 13.38, north: 52.53, east: 13.41)
            #expect(area["lastStatus"].string == "failed")
            #expect(area["lastError"].string?.contains("tile 3/6") == true && area["lastError"].string?.contains("malformed") == true)
            #expect(area["tilesDone"].int == 2 && area["tilesTotal"].int == 6)
            #expect(try await places.count("SELECT count(*) FROM places") == 2, "the first two tiles' places stay")
            let boxes = places.provider.requests.filter { $0.path == "/api/interpreter" }.compactMap { $0.body.removingPercentEncoding }
            #expect(boxes.count == 3 && boxes[0].contains("52.510000,13.380000,52.520000,13.390000"))
        }
    }

    @Test("P1, X2: provider answers at the edges (NUL, out-of-range and extreme coordinates, huge text) store what is storable")
    func edgeAnswerImports() async throws {
        let long = String(repeating: "é", count: 50_000)
        let elements = [
            #"{"type":"node","id":1,"lat":52.515,"lon":13.385,"tags":{"amenity":"cafe","name":"Nul\u0000Cafe","phone":"\u0000"}}"#,
            #"{"type":"node","id":2,"lat":1000,"lon":13.385,"tags":{"amenity":"cafe","name":"Far north"}}"#,
            #"{"type":"node","id":3,"lat":52.515,"lon":-1e308,"tags":{"amenity":"cafe","name":"Far west"}}"#,
            #"{"type":"node","id":9223372036854775807,"lat":52.516,"lon":13.386,"tags":{"amenity":"bar","name":"\#(long)","website":"\#(long)"}}"#,
            #"{"type":"node","id":5,"lat":52.517,"lon":13.387,"tags":{"amenity":"cafe","name":"\u0000 "}}"#,
            #"{"type":"way","id":6,"center":{"lat":-90,"lon":180},"tags":{"amenity":"library","name":"Pole"}}"#,
        ]
        try await PlacesTestHarness.run(
            provider: { request in
                guard request.path == "/api/interpreter" else { return await PlacesTestHarness.defaultProvider(request) }
                return .init(body: PlacesFixtures.overpass(elements: elements))
            }
        ) { places in
            let area = try await places.importArea()
            #expect(area["lastStatus"].string == "succeeded", "the tile imports: \(area)")
            #expect(
                try await places.count("SELECT count(*) FROM places") == 3, "NUL stripped, long texts cut; bad coordinates and empty names skipped")
            #expect(try await places.count("SELECT count(*) FROM places WHERE name = 'NulCafe' AND phone = ''") == 1)
            #expect(try await places.count("SELECT max(length(name)) FROM places") == 300)
        }
    }

    @Test("P1: import areas from configuration are registered and imported on the schedule")
    func configuredAreas() async throws {
        try await PlacesTestHarness.run(extraEnvironment: ["PLACES_IMPORT_AREAS": "mitte:52.51,13.38,52.53,13.41"]) { places in
            let imported = try await eventually { try await places.finishedRuns() == 1 }
            let count = try await places.count("SELECT count(*) FROM places")
            #expect(imported && count == 4)
        }
    }
}
