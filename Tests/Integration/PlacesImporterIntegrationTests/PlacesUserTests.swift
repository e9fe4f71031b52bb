import Foundation
import HTTPTypes
import NIOCore
import ServiceTestSupport
import TestSupport
import Testing

@testable import PlacesImporter

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Nearby places with pins, ratings and aggregates (P2, P3), adding limits, and bad input (X3); adding places is
/// `PlacesAddingTests`.
@Suite("places-importer: nearby, pins, ratings")
struct PlacesUserTests {
    nonisolated(unsafe) static let goodRating: [String: Any] = [
        "noise": 2, "outlets": 4, "wifi": 5, "cost": 3, "seating": 4, "menuOptions": ["drinks-only", "light-snacks"],
        "businessType": "coffee-shop", "notes": "quiet upstairs",
    ]

    static func placeId(_ places: PlacesTestHarness, named name: String) async throws -> String {
        let rows = try await places.db.client.query("SELECT id::text FROM places WHERE name = \(name)", logger: places.db.logger)
        for try await id in rows.decode(String.self) { return id }
        throw CancellationError()
    }

    @Test("P2: nearby by radius is nearest first with distances; a box lists by name; pages")
    func nearbyQueries() async throws {
        try await PlacesTestHarness.run { places in
            try await places.importArea()
            let user = try await places.token()
            var (status, body) = try await places.request(.get, "/v1/places?lat=52.5170&lon=13.3889&radius=2000", bearer: user)
            #expect(status == .ok)
            let names = body["places"].array.compactMap { $0["name"].string }
            #expect(names.first == "Café Einstein" && names.count == 4)
            let distances = body["places"].array.compactMap { $0["distanceMetres"].double }
            #expect(distances == distances.sorted())
            (_, body) = try await places.request(.get, "/v1/places?lat=52.5170&lon=13.3889&radius=400", bearer: user)
            #expect(body["places"].array.compactMap { $0["name"].string } == ["Café Einstein", "Staatsbibliothek zu Berlin"])
            (_, body) = try await places.request(.get, "/v1/places/in-box?south=52.515&west=13.38&north=52.53&east=13.41&pageSize=2", bearer: user)
            #expect(body["places"].array.compactMap { $0["name"].string } == ["Balzac Coffee", "Café Einstein"] && body["hasMore"].bool == true)
            (_, body) = try await places.request(
                .get, "/v1/places/in-box?south=52.515&west=13.38&north=52.53&east=13.41&pageSize=2&page=2", bearer: user)
            #expect(body["places"].array.compactMap { $0["name"].string } == ["Staatsbibliothek zu Berlin", "St. Oberholz"])
        }
    }

    @Test("P2: pins are red until the user rates or saves a place (blue), or picks a colour; per user")
    func pinStates() async throws {
        try await PlacesTestHarness.run { places in
            try await places.importArea()
            let alice = try await places.token()
            let bob = try await places.token()
            let einstein = try await Self.placeId(places, named: "Café Einstein")
            let balzac = try await Self.placeId(places, named: "Balzac Coffee")
            let library = try await Self.placeId(places, named: "Staatsbibliothek zu Berlin")
            var (status, _) = try await places.request(.put, "/v1/places/\(einstein)/rating", json: Self.goodRating, bearer: alice)
            #expect(status == .ok)
            (status, _) = try await places.request(.put, "/v1/places/\(balzac)/saved", bearer: alice)
            #expect(status == .ok)
            var body: JSONValue
            (status, body) = try await places.request(.put, "/v1/places/\(library)/pin", json: ["colour": "green"], bearer: alice)
            #expect(status == .ok && body["pin"].string == "green")
            let pins = { (token: String) async throws -> [String: String] in
                let (_, body) = try await places.request(.get, "/v1/places?lat=52.52&lon=13.40&radius=3000", bearer: token)
                return Dictionary(
                    uniqueKeysWithValues: body["places"].array.compactMap { place in
                        place["name"].string.map { ($0, place["pin"].string ?? "") }
                    })
            }
            #expect(
                try await pins(alice) == [
                    "Café Einstein": "blue", "Balzac Coffee": "blue", "Staatsbibliothek zu Berlin": "green", "St. Oberholz": "red",
                ])
            #expect(try await pins(bob).values.allSatisfy { $0 == "red" })
            (_, body) = try await places.request(.delete, "/v1/places/\(library)/pin", bearer: alice)
            #expect(body["pin"].string == "red")
            (_, body) = try await places.request(.delete, "/v1/places/\(balzac)/saved", bearer: alice)
            #expect(body["pin"].string == "red")
            let after = try await pins(alice)
            #expect(after["Staatsbibliothek zu Berlin"] == "red" && after["Balzac Coffee"] == "red" && after["Café Einstein"] == "blue")
        }
    }

    @Test(
        "P3: each out-of-range rating field is named (400); an unknown choice or a missing score is 400; re-rating replaces; the place shows every user's aggregate"
    )
    func ratings() async throws {
        try await PlacesTestHarness.run { places in
            try await places.importArea()
            let alice = try await places.token()
            let bob = try await places.token()
            let einstein = try await Self.placeId(places, named: "Café Einstein")
            var (status, body) = try await places.request(
                .put, "/v1/places/\(einstein)/rating",
                json: [
                    "noise": 7, "outlets": -1, "wifi": 3, "cost": 2, "seating": 1, "menuOptions": ["lunch", "lunch"], "businessType": "bar",
                    "notes": String(repeating: "x", count: 1_001),
                ],
                bearer: alice)
            #expect(status == .badRequest && body["error"]["code"].string == "invalid_request")
            let fields = Set(((body["error"]["details"].raw as? [String: Any]) ?? [:]).keys)
            #expect(fields == ["noise", "outlets", "menuOptions", "notes"])
            (status, body) = try await places.request(
                .put, "/v1/places/\(einstein)/rating", json: Self.goodRating.merging(["businessType": "casino"]) { $1 }, bearer: alice)
            #expect(status == .badRequest && body["error"]["message"].string?.contains("businessType") == true)
            (status, body) = try await places.request(
                .put, "/v1/places/\(einstein)/rating", json: Self.goodRating.filter { $0.key != "seating" }, bearer: alice)
            #expect(status == .badRequest && body["error"]["message"].string == "seating is required")
            #expect(try await places.count("SELECT count(*) FROM place_ratings") == 0)
            (status, _) = try await places.request(.put, "/v1/places/\(einstein)/rating", json: Self.goodRating, bearer: alice)
            var better = Self.goodRating
            better["noise"] = 4
            better["menuOptions"] = ["full-menu"]
            (status, body) = try await places.request(.put, "/v1/places/\(einstein)/rating", json: better, bearer: alice)
            #expect(status == .ok && body["ratings"]["count"].int == 1 && body["ratings"]["averages"]["noise"].double == 4)
            var bobs = Self.goodRating
            bobs["noise"] = 1
            bobs["wifi"] = 2
            (status, _) = try await places.request(.put, "/v1/places/\(einstein)/rating", json: bobs, bearer: bob)
            (status, body) = try await places.request(.get, "/v1/places/\(einstein)", bearer: alice)
            #expect(status == .ok)
            #expect(body["ratings"]["count"].int == 2)
            #expect(body["ratings"]["averages"]["noise"].double == 2.5 && body["ratings"]["averages"]["wifi"].double == 3.5)
            #expect(body["ratings"]["menuOptions"]["full-menu"].int == 1 && body["ratings"]["menuOptions"]["drinks-only"].int == 1)
            #expect(body["myRating"]["noise"].int == 4 && body["place"]["pin"].string == "blue")
            #expect(try await places.count("SELECT count(*) FROM outbox WHERE event_type = 'place.rated'") == 3)
        }
    }

    @Test("X3, P4: one account adds at most PLACES_ADDED_PER_ACCOUNT_DAY places in 24 hours; others are not held back")
    func placesAddedPerAccountDay() async throws {
        try await PlacesTestHarness.run(extraEnvironment: ["PLACES_ADDED_PER_ACCOUNT_DAY": "2"]) { places in
            let (user, other) = (try await places.token(), try await places.token("someone-else"))
            func add(_ name: String, _ token: String) async throws -> (HTTPResponse.Status, String?) {
                let (status, body) = try await places.request(
                    .post, "/v1/places", json: ["name": name, "latitude": 52.49, "longitude": 13.42, "category": "other"], bearer: token)
                return (status, body["error"]["code"].string)
            }
            #expect(try await add("First Desk", user).0 == .created)
            #expect(try await add("Second Desk", user).0 == .created)
            let (refused, code) = try await add("Third Desk", user)
            #expect(refused == .tooManyRequests && code == "too_many_places")
            #expect(try await places.count("SELECT count(*) FROM places WHERE name = 'Third Desk'") == 0, "nothing stored")
            #expect(try await add("Their Desk", other).0 == .created)
        }
    }

    @Test("X3, P3, U8: one account rates at most PLACES_RATINGS_PER_ACCOUNT_DAY places in 24 hours; re-rating one is free")
    func ratingsPerAccountDay() async throws {
        try await PlacesTestHarness.run(extraEnvironment: ["PLACES_RATINGS_PER_ACCOUNT_DAY": "2"]) { places in
            let (user, other) = (try await places.token(), try await places.token("someone-else"))
            // Places the raters added themselves: a place awaiting review is theirs to see and rate.
            var ids: [String] = []
            for (name, token) in [("Desk One", user), ("Desk Two", user), ("Desk Three", user), ("Their Desk", other)] {
                let (status, body) = try await places.request(
                    .post, "/v1/places", json: ["name": name, "latitude": 52.49, "longitude": 13.42, "category": "other"], bearer: token)
                #expect(status == .created)
                ids.append(try #require(body["id"].string))
            }
            func rate(_ place: String, _ token: String) async throws -> (HTTPResponse.Status, String?) {
                let (status, body) = try await places.request(.put, "/v1/places/\(place)/rating", json: Self.goodRating, bearer: token)
                return (status, body["error"]["code"].string)
            }
            #expect(try await rate(ids[0], user).0 == .ok)
            #expect(try await rate(ids[1], user).0 == .ok)
            #expect(try await rate(ids[1], user).0 == .ok, "re-rating a place already rated today is free")
            let (refused, code) = try await rate(ids[2], user)
            #expect(refused == .tooManyRequests && code == "too_many_ratings")
            #expect(try await places.count("SELECT count(*) FROM place_ratings WHERE place_id = '\(ids[2])'") == 0, "nothing stored")
            #expect(try await rate(ids[3], other).0 == .ok, "another account is not held back")
        }
    }

    @Test("X3: 400 for what the document does not allow, 422 for the rules it states in words, 401, 403, 404, bad JSON: JSON errors")
    func badInput() async throws {
        try await PlacesTestHarness.run { places in
            let user = try await places.token()
            let unknown = UUID().uuidString
            let cases: [(String, String, [String: Any]?, String?, Int, String)] = [
                ("GET", "/v1/places?lat=52&lon=13", nil, user, 200, ""),
                ("GET", "/v1/places?lat=95&lon=13", nil, user, 400, "invalid_request"),
                ("GET", "/v1/places?lat=52&lon=13&radius=50001", nil, user, 400, "invalid_request"),
                ("GET", "/v1/places?lat=52&lon=13&pageSize=101", nil, user, 400, "invalid_request"),
                ("GET", "/v1/places?lat=52", nil, user, 400, "invalid_request"),
                ("GET", "/v1/places", nil, user, 400, "invalid_request"),
                ("GET", "/v1/places?lat=52&lon=13&radius=1.5", nil, user, 400, "invalid_request"),
                ("GET", "/v1/places/in-box?south=50&west=10&north=53&east=14", nil, user, 422, "box_too_large"),
                ("GET", "/v1/places/in-box?south=53&west=10&north=52&east=10.5", nil, user, 422, "invalid_box"),
                ("GET", "/v1/places/in-box?south=53&west=10", nil, user, 400, "invalid_request"),
                ("GET", "/v1/places?lat=52&lon=13", nil, nil, 401, "unauthorized"),
                ("GET", "/v1/places/\(unknown)", nil, user, 404, "place_not_found"),
                ("GET", "/v1/places/not-a-uuid", nil, user, 400, "invalid_request"),
                ("PUT", "/v1/places/\(unknown)/rating", PlacesUserTests.goodRating, user, 404, "place_not_found"),
                ("PUT", "/v1/places/\(unknown)/pin", ["colour": "green"], user, 404, "place_not_found"),
                ("POST", "/v1/places", ["latitude": 52.0], user, 400, "invalid_request"),
                ("POST", "/v1/places", ["name": "X", "latitude": 91, "longitude": 0], user, 400, "invalid_request"),
                ("POST", "/v1/places", ["name": "X", "latitude": 52], user, 422, "validation_failed"),
                ("POST", "/v1/places", ["name": "X"], user, 422, "validation_failed"),
                ("POST", "/v1/places", ["name": "\u{0} \t", "latitude": 52, "longitude": 13], user, 400, "invalid_request"),
                (
                    "POST", "/v1/places",
                    [
                        "name": "Nul\u{0}Cafe", "latitude": 52, "longitude": 13,
                        "rating": PlacesUserTests.goodRating.merging(["notes": "a\u{0}b"]) { $1 },
                    ], user, 201, ""
                ),
                ("POST", "/v1/places", ["name": "Null", "latitude": 52, "longitude": 13, "category": NSNull()], user, 400, "invalid_request"),
                ("POST", "/v1/places", ["name": "Extra", "latitude": 52, "longitude": 13, "extra": 1], user, 400, "invalid_request"),
                ("PUT", "/v1/places/\(unknown)/pin", ["colour": "red"], user, 400, "invalid_request"),
                ("POST", "/v1/admin/import-areas", ["name": "a", "south": 1, "west": 1, "north": 2, "east": 2], user, 403, "forbidden"),
                (
                    "PUT", "/v1/places/\(unknown)/rating", ["noise": 9, "outlets": 0, "wifi": 0, "cost": 0, "seating": 0, "businessType": "bar"],
                    user, 400, "invalid_request"
                ),
                ("POST", "/v1/places", ["name": "\r\n", "latitude": 52, "longitude": 13], user, 400, "invalid_request"),
                (
                    "POST", "/v1/places", ["name": String(repeating: "e\u{301}", count: 101), "latitude": 52, "longitude": 13], user, 400,
                    "invalid_request"
                ),
            ]
            for (method, path, json, bearer, expected, code) in cases {
                let (status, body) = try await places.request(.init(rawValue: method)!, path, json: json, bearer: bearer)
                #expect(status.code == expected, "\(method) \(path)")
                if !code.isEmpty { #expect(body["error"]["code"].string == code, "\(method) \(path)") }
            }
            let admin = try await places.token("admin", role: .admin)
            let (status, body) = try await places.request(
                .post, "/v1/admin/import-areas", json: ["name": "world", "south": -80, "west": -170, "north": 80, "east": 170], bearer: admin)
            #expect(status == .unprocessableContent && body["error"]["details"]["box"].string != nil)
            let raw = try await places.client.execute(
                uri: "/v1/places", method: .post, headers: [.authorization: "Bearer \(user)", .contentType: "application/json"],
                body: ByteBuffer(string: "{not json")
            ) { ($0.status, String(buffer: $0.body)) }
            #expect(raw.0 == .badRequest && raw.1.contains("invalid_json"))
            for bad in [["name": String(repeating: "a", count: 101)], ["south": -91.0]] as [[String: Any]] {
                let area = ["name": "a", "south": 1, "west": 1, "north": 2, "east": 2].merging(bad) { $1 }
                let (status, body) = try await places.request(.post, "/v1/admin/import-areas", json: area, bearer: admin)
                #expect(status == .badRequest && body["error"]["code"].string == "invalid_request", "\(bad)")
            }
            // No Content-Type: the generated layer still reads the body as JSON, so nulls are refused there too.
            let untyped = try await places.client.execute(
                uri: "/v1/places", method: .post, headers: [.authorization: "Bearer \(user)"],
                body: ByteBuffer(string: #"{"name":"No type","latitude":52,"longitude":13,"category":null}"#)
            ) { ($0.status, String(buffer: $0.body)) }
            #expect(untyped.0 == .badRequest && untyped.1.contains("null"))
        }
    }
}
