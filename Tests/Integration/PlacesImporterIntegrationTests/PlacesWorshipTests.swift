import Foundation
import PlatformEvents
import PlatformHTTP
import ServiceTestSupport
import Synchronization
import TestSupport
import Testing

@testable import PlacesImporter

/// Places of worship for the horoscope app (B4): imported from OpenStreetMap only for areas that ask.
@Suite("places-importer: places of worship")
struct PlacesWorshipTests {
    static let temple = """
        {"type":"node","id":7001,"lat":52.5190,"lon":13.4000,"tags":{"amenity":"place_of_worship","religion":"buddhist","name":"Wat Test Berlin"}}
        """

    @Test("B4, P1: an area configured with :worship asks Overpass for places of worship and publishes them as category worship")
    func worshipImportedWhenAsked() async throws {
        let worshipQueries = FakeCounter()
        let handler: FakeHTTPServer.Handler = { request in
            guard request.path == "/api/interpreter" else { return await PlacesTestHarness.defaultProvider(request) }
            let asked = (request.body.removingPercentEncoding ?? "").contains("place_of_worship")
            if asked { worshipQueries.add() }
            return .init(body: PlacesFixtures.overpass(elements: asked ? [PlacesFixtures.einstein, Self.temple] : [PlacesFixtures.einstein]))
        }
        try await PlacesTestHarness.run(
            extraEnvironment: ["PLACES_IMPORT_AREAS": "mitte:52.51,13.38,52.53,13.41:worship;tiergarten:52.50,13.33,52.52,13.36"],
            provider: handler
        ) { places in
            #expect(try await eventually { try await places.finishedRuns() == 2 })
            #expect(try await places.count("SELECT count(*) FROM places WHERE category = 'worship' AND name = 'Wat Test Berlin'") == 1)
            #expect(worshipQueries.value > 0)
            #expect(
                try await eventually {
                    try await places.count(
                        "SELECT count(*) FROM outbox WHERE event_type = 'place.upserted' AND convert_from(payload, 'UTF8')::jsonb #>> '{payload,category}' = 'worship'"
                    ) == 1
                })
            let (status, body) = try await places.request(.get, "/v1/admin/import-areas", bearer: try await places.token(role: .admin))
            #expect(status == .ok)
            let flags = Dictionary(
                uniqueKeysWithValues: body["areas"].array.compactMap { area in area["name"].string.map { ($0, area["placesOfWorship"].bool) } })
            #expect(flags["mitte"] == true && flags["tiergarten"] == false)
            // An admin turns it on for an area through the API.
            let (saved, answer) = try await places.request(
                .post, "/v1/admin/import-areas",
                json: ["name": "tiergarten", "south": 52.50, "west": 13.33, "north": 52.52, "east": 13.36, "placesOfWorship": true],
                bearer: try await places.token(role: .admin))
            #expect(saved == .ok && answer["areas"].array.contains { $0["name"].string == "tiergarten" && $0["placesOfWorship"].bool == true })
        }
    }

    @Test("B4, P1: an overlapping area that did not ask for places of worship does not close them; one that asked does")
    func worshipClosedOnlyByAreasAskingForIt() async throws {
        let templeListed = Mutex(true)
        let handler: FakeHTTPServer.Handler = { request in
            guard request.path == "/api/interpreter" else { return await PlacesTestHarness.defaultProvider(request) }
            let asked = (request.body.removingPercentEncoding ?? "").contains("place_of_worship")
            let temple = asked && templeListed.withLock { $0 }
            return .init(body: PlacesFixtures.overpass(elements: temple ? [PlacesFixtures.einstein, Self.temple] : [PlacesFixtures.einstein]))
        }
        try await PlacesTestHarness.run(provider: handler) { places in
            let admin = try await places.token("admin-1", role: .admin)
            let box: [String: Any] = ["south": 52.51, "west": 13.38, "north": 52.53, "east": 13.41]
            let add = { (name: String, worship: Bool) in
                let before = try await places.finishedRuns()
                let (status, _) = try await places.request(
                    .post, "/v1/admin/import-areas", json: box.merging(["name": name, "placesOfWorship": worship]) { $1 }, bearer: admin)
                #expect(status == .ok)
                #expect(try await eventually { try await places.finishedRuns() > before })
            }
            try await add("temples", true)
            #expect(try await places.count("SELECT count(*) FROM places WHERE name = 'Wat Test Berlin'") == 1)
            try await add("workplaces", false)
            #expect(try await places.count("SELECT count(*) FROM places WHERE closed_at IS NOT NULL") == 0, "not judged by a workplaces run")
            templeListed.withLock { $0 = false }
            try await add("temples", true)
            #expect(try await places.count("SELECT count(*) FROM places WHERE closed_at IS NOT NULL AND name = 'Wat Test Berlin'") == 1)
        }
    }

    @Test(
        "B4, P2: appointment-booker's request imports the places of worship around its point and is answered with them; the places app never lists them"
    )
    func worshipImportedOnRequest() async throws {
        let handler: FakeHTTPServer.Handler = { request in
            guard request.path == "/api/interpreter" else { return await PlacesTestHarness.defaultProvider(request) }
            let asked = (request.body.removingPercentEncoding ?? "").contains("place_of_worship")
            return .init(body: PlacesFixtures.overpass(elements: asked ? [PlacesFixtures.einstein, Self.temple] : [PlacesFixtures.einstein]))
        }
        for source in ["memory", "postgis"] {
            try await PlacesTestHarness.run(extraEnvironment: ["PLACES_NEARBY_SOURCE": source], provider: handler) { places in
                let wanted = WorshipPlacesWanted(requestId: "52.5,13.3", latitude: 52.5185, longitude: 13.3950, radiusMeters: 2_000)
                try await places.publish(
                    EventEnvelope(type: EventTypes.worshipPlacesWanted, producer: "appointment-booker", key: wanted.requestId, payload: wanted),
                    to: places.requestsTopic)
                let consumer = try makeConsumer(topics: [places.topic], group: "check-\(uniqueSuffix())", startPosition: .beginning)
                var answer: EventEnvelope<WorshipPlacesFound>?
                let deadline = ContinuousClock.now + .seconds(60)
                while answer == nil, ContinuousClock.now < deadline {
                    for message in try await collect(1, from: consumer, timeout: .seconds(2)) {
                        let header = try EventCoding.decoder.decode(EventHeader.self, from: Data(message.value))
                        if header.type == EventTypes.worshipPlacesFound {
                            answer = try EventCoding.decoder.decode(EventEnvelope<WorshipPlacesFound>.self, from: Data(message.value))
                        }
                    }
                }
                await consumer.close()
                let found = try #require(answer, "no worship.places-found on the places topic")
                #expect(found.key == "52.5,13.3" && found.payload.requestId == "52.5,13.3")
                #expect(found.payload.places.map(\.name) == ["Wat Test Berlin"], "the café is no place of worship")
                #expect(found.payload.places.first?.latitude == 52.5190)
                #expect(
                    try await places.count(
                        "SELECT count(*)::int FROM import_areas WHERE name = 'worship 52.5,13.3' AND places_of_worship AND on_demand") == 1)
                #expect(try await places.count("SELECT count(*)::int FROM worship_requests WHERE answered_at IS NOT NULL") == 1)

                // The places app lists the café there, never the temple: by radius and by box.
                let member = try await places.token()
                let (status, nearby) = try await places.request(.get, "/v1/places?lat=52.5190&lon=13.4000&radius=2000", bearer: member)
                #expect(status == .ok)
                let names = nearby["places"].array.compactMap { $0["name"].string }
                #expect(names.contains("Café Einstein") && !names.contains("Wat Test Berlin"), "\(source): \(names)")
                let (_, boxed) = try await places.request(
                    .get, "/v1/places/in-box?south=52.51&west=13.38&north=52.53&east=13.41", bearer: member)
                let inBox = boxed["places"].array.compactMap { $0["name"].string }
                #expect(inBox.contains("Café Einstein") && !inBox.contains("Wat Test Berlin"), "\(source): \(inBox)")
            }
        }
    }

    @Test("B4, X3: a request near a pole imports a box within the import area limits, never a strip round the globe")
    func polarRequestBounded() async throws {
        let tiles = FakeCounter()
        let handler: FakeHTTPServer.Handler = { request in
            guard request.path == "/api/interpreter" else { return await PlacesTestHarness.defaultProvider(request) }
            tiles.add()
            return .init(body: PlacesFixtures.overpass(elements: []))
        }
        try await PlacesTestHarness.run(provider: handler) { places in
            let wanted = WorshipPlacesWanted(requestId: "89.9,0.0", latitude: 89.95, longitude: 0.05, radiusMeters: 20_000)
            try await places.publish(
                EventEnvelope(type: EventTypes.worshipPlacesWanted, producer: "appointment-booker", key: wanted.requestId, payload: wanted),
                to: places.requestsTopic)
            #expect(try await eventually { try await places.count("SELECT count(*)::int FROM worship_requests WHERE answered_at IS NOT NULL") == 1 })
            let area = "name = 'worship 89.9,0.0'"
            #expect(try await places.count("SELECT count(*)::int FROM import_areas WHERE \(area) AND east - west <= 5 AND north - south <= 5") == 1)
            #expect(try await places.count("SELECT count(*)::int FROM import_areas WHERE \(area) AND west > -179.95 AND east < 180") == 1)
            #expect((1...WorshipSearchBox.defaultMaximumTiles).contains(tiles.value), "\(tiles.value) provider requests")
        }
    }
}

/// A count the fake provider's handler shares across requests.
final class FakeCounter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
