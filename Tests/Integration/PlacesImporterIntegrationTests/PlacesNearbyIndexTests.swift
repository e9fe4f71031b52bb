import Foundation
import Logging
import NIOCore
import PostgresNIO
import ServiceTestSupport
import TestSupport
import Testing

@testable import PlacesImporter

/// The in-memory nearby index against Postgres (P2): it answers what PostGIS answers, and it picks up writes
/// from other instances, including ones whose transactions ran across a refresh.
@Suite("places-importer: the in-memory nearby index")
struct PlacesNearbyIndexTests {
    struct Page: Decodable, Equatable {
        var places: [Components.Schemas.Place]
        var hasMore: Bool
    }

    static func insert(
        _ db: TestDatabase, name: String, latitude: Double, longitude: Double, on connection: PostgresConnection? = nil
    ) async throws -> UUID {
        let id = UUID()
        let query: PostgresQuery = """
            INSERT INTO places (id, name, match_name, category, location, primary_provider, primary_provider_id)
            VALUES (\(id), \(name), \(MatchName.of(name)), 'cafe', \("SRID=4326;POINT(\(longitude) \(latitude))")::geography, 'osm', \(id.uuidString))
            """
        if let connection { try await connection.query(query, logger: db.logger) } else { try await db.client.query(query, logger: db.logger) }
        return id
    }

    static func page(_ nearby: NearbyPlaces, _ area: NearbyPlaces.Area, user: String, page: Int = 1, pageSize: Int = 100) async throws -> Page {
        let body = PlaceJSON.page(try await nearby.page(area, user: user, page: page, pageSize: pageSize))
        return try JSONDecoder().decode(Page.self, from: Data(body.readableBytesView))
    }

    @Test("P2: for random circles and boxes the index answers exactly what PostGIS answers, pins and pages included")
    func indexMatchesPostGIS() async throws {
        try await PlacesTestHarness.run { places in
            let db = places.db
            var generator = SystemRandomNumberGenerator()
            var ids: [UUID] = []
            for index in 0..<1_500 {
                // Names repeat so that box order needs its id tie-break.
                ids.append(
                    try await Self.insert(
                        db, name: "Place \(index % 700)", latitude: Double.random(in: 52.40...52.60, using: &generator),
                        longitude: Double.random(in: 13.20...13.60, using: &generator)))
            }
            let user = "diff-user"
            for id in ids.prefix(40) {
                try await db.client.query("INSERT INTO saved_places (user_id, place_id) VALUES (\(user), \(id))", logger: db.logger)
            }
            for id in ids[40..<60] {
                try await db.client.query(
                    "INSERT INTO pin_colours (user_id, place_id, colour) VALUES (\(user), \(id), 'purple')", logger: db.logger)
            }
            let logger = Logger(label: "index-test")
            let users = UserPlaceStore(
                client: db.client, logger: logger,
                places: PlaceStore(client: db.client, logger: logger, matchDistanceMetres: 50, topic: places.topic))
            let index = PlaceIndex(feed: PlaceChangeFeed(client: db.client, logger: logger), render: PlaceJSON.openObject, logger: logger)
            try await index.refresh()
            let memory = NearbyPlaces(index: index, pinCache: .pins(ttl: .seconds(60)), users: users, render: PlaceJSON.openObject)
            let postgis = NearbyPlaces(index: nil, pinCache: .pins(ttl: .zero), users: users, render: PlaceJSON.openObject)
            #expect(index.snapshot?.count == 1_500)
            for round in 0..<25 {
                let latitude = Double.random(in: 52.38...52.62, using: &generator)
                let longitude = Double.random(in: 13.18...13.62, using: &generator)
                let circle = NearbyPlaces.Area.circle(
                    latitude: latitude, longitude: longitude, radiusMetres: Double(Int.random(in: 100...8_000, using: &generator)))
                let pageNumber = round % 3 + 1
                let fromMemory = try await Self.page(memory, circle, user: user, page: pageNumber, pageSize: 40)
                let fromPostGIS = try await Self.page(postgis, circle, user: user, page: pageNumber, pageSize: 40)
                #expect(fromMemory.places.map(\.id) == fromPostGIS.places.map(\.id), "circle \(circle)")
                #expect(fromMemory.places.map(\.pin) == fromPostGIS.places.map(\.pin))
                #expect(fromMemory.hasMore == fromPostGIS.hasMore)
                for (a, b) in zip(fromMemory.places, fromPostGIS.places) {
                    #expect(abs((a.distanceMetres ?? -1) - (b.distanceMetres ?? -2)) <= 0.1 + 1e-9)
                }
                let box = GeoBox(
                    south: latitude - 0.03, west: longitude - 0.05, north: latitude + 0.03, east: longitude + 0.05)
                let boxFromMemory = try await Self.page(memory, .box(box), user: user, page: pageNumber, pageSize: 30)
                let boxFromPostGIS = try await Self.page(postgis, .box(box), user: user, page: pageNumber, pageSize: 30)
                #expect(boxFromMemory == boxFromPostGIS, "box \(box)")
            }
        }
    }

    @Test("P2: the index takes in inserts and moves from elsewhere, even from a transaction that spanned a refresh")
    func indexFollowsChanges() async throws {
        try await PlacesTestHarness.run { places in
            let db = places.db
            let logger = Logger(label: "index-test")
            let index = PlaceIndex(feed: PlaceChangeFeed(client: db.client, logger: logger), render: PlaceJSON.openObject, logger: logger)
            try await index.refresh()
            #expect(index.snapshot?.count == 0)
            let first = try await Self.insert(db, name: "First", latitude: 52.5, longitude: 13.4)
            try await index.refresh()
            let near = { () -> [UUID] in
                index.snapshot?.near(latitude: 52.5, longitude: 13.4, radiusMetres: 500, viewer: "anyone", limit: 10, offset: 0).map(\.entry.id) ?? []
            }
            #expect(near() == [first])
            // A transaction that wrote before a refresh and committed after it.
            let late = try await db.client.withConnection { connection -> UUID in
                try await connection.query("BEGIN", logger: logger)
                let id = try await Self.insert(db, name: "Late", latitude: 52.501, longitude: 13.4, on: connection)
                try await index.refresh()
                #expect(!near().contains(id), "not committed yet")
                try await connection.query("COMMIT", logger: logger)
                return id
            }
            try await index.refresh()
            #expect(near() == [first, late])
            try await db.client.query(
                "UPDATE places SET location = 'SRID=4326;POINT(13.5 52.6)'::geography WHERE id = \(first)", logger: db.logger)
            try await index.refresh()
            #expect(near() == [late])
            // A read with nothing new since its watermark reads nothing, even while an older transaction stays
            // open elsewhere in the cluster (so the periodic refresh stays cheap).
            try await db.client.withConnection { other in
                try await other.query("BEGIN", logger: logger)
                _ = try await other.query("SELECT pg_current_xact_id()", logger: logger).collectAll()
                // Written after that transaction began, so below the oldest running id it is not.
                try await db.client.query("UPDATE places SET name = 'Late!' WHERE id = \(late)", logger: logger)
                let feed = PlaceChangeFeed(client: db.client, logger: logger)
                let everything = try await feed.changes(since: nil)
                #expect(everything.places.count == 2)
                #expect(try await feed.changes(since: everything.watermark).places.isEmpty)
                try await other.query("ROLLBACK", logger: logger)
            }
            #expect(
                index.snapshot?.near(latitude: 52.6, longitude: 13.5, radiusMetres: 10, viewer: "anyone", limit: 10, offset: 0).map(\.entry.id) == [
                    first
                ])
        }
    }

    @Test("P2: nearby through the running service shows a place added a moment ago and the asker's new pin at once")
    func serviceReadsItsOwnWrites() async throws {
        try await PlacesTestHarness.run { places in
            let user = try await places.token()
            // Adding refreshes the index (loading it if the periodic load has not yet), so the lists below come
            // from memory.
            var (status, body) = try await places.request(
                .post, "/v1/places", json: ["name": "Kitchen Table", "latitude": 52.5001, "longitude": 13.4001], bearer: user)
            #expect(status == .created)
            let id = body["id"].string ?? ""
            (_, body) = try await places.request(.get, "/v1/places?lat=52.5&lon=13.4&radius=100", bearer: user)
            #expect(body["places"].array.compactMap { $0["id"].string } == [id])
            #expect(body["places"].array.first?["pin"].string == "blue", "the adder's own place")
            (status, _) = try await places.request(.put, "/v1/places/\(id)/pin", json: ["colour": "orange"], bearer: user)
            #expect(status == .ok)
            (_, body) = try await places.request(.get, "/v1/places?lat=52.5&lon=13.4&radius=100", bearer: user)
            #expect(body["places"].array.first?["pin"].string == "orange")
            // Listed for others once an admin approved it (X3), with their own pin.
            let admin = try await places.token(role: .admin)
            (status, _) = try await places.request(.put, "/v1/admin/places/\(id)/review", json: ["decision": "approve"], bearer: admin)
            #expect(status == .ok)
            let other = try await places.token()
            (_, body) = try await places.request(.get, "/v1/places?lat=52.5&lon=13.4&radius=100", bearer: other)
            #expect(body["places"].array.compactMap { $0["id"].string } == [id])
            #expect(body["places"].array.first?["pin"].string == "red")
        }
    }
}
