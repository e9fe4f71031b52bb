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

/// Adding places (P4): by coordinates or by an address looked up through Nominatim, and the look-ups' limits (X3).
@Suite("places-importer: adding places")
struct PlacesAddingTests {
    @Test("P4: add by coordinates; add by address through Nominatim; unknown address; a bad field stores nothing")
    func addPlace() async throws {
        try await PlacesTestHarness.run { places in
            let user = try await places.token()
            var (status, body) = try await places.request(
                .post, "/v1/places",
                json: [
                    "name": "My Kitchen Table", "latitude": 52.49, "longitude": 13.42, "category": "other", "pinColour": "purple",
                    "rating": PlacesUserTests.goodRating,
                ],
                bearer: user)
            #expect(status == .created && body["pin"].string == "purple" && body["userAdded"].bool == true)
            #expect(try await places.count("SELECT count(*) FROM place_ratings") == 1)
            (status, body) = try await places.request(
                .post, "/v1/places", json: ["name": "Betahaus", "address": "Rudi-Dutschke-Straße 12, Berlin", "category": "coworking"],
                bearer: user)
            #expect(status == .created)
            #expect(body["latitude"].double == 52.5301 && body["longitude"].double == 13.4012)
            #expect(body["openingHours"].string == "Mo-Fr 08:00-20:00" && body["phone"].string == "+49 30 6098 9000")
            #expect(body["pin"].string == "blue", "a user's own place is saved by them")
            let lookup = try #require(places.provider.requests.first { $0.path == "/search" })
            #expect(lookup.query["format"] == "jsonv2" && lookup.headers["user-agent"]?.contains("places-importer") == true)
            // P4 as the seed has it: look up first (by address or by coordinates), review, then save.
            let storedBeforeLookups = try await places.count("SELECT count(*) FROM places")
            (status, body) = try await places.request(.get, "/v1/places/lookup?address=Rudi-Dutschke-Stra%C3%9Fe%2012", bearer: user)
            #expect(status == .ok && body["name"].string == "Betahaus Café" && body["website"].string == "https://betahaus.example")
            (status, body) = try await places.request(.get, "/v1/places/lookup?latitude=52.5301&longitude=13.4012", bearer: user)
            #expect(status == .ok && body["name"].string == "Betahaus Café" && body["latitude"].double == 52.5301)
            #expect(places.provider.requests.contains { $0.path == "/reverse" && $0.query["format"] == "jsonv2" })
            (status, body) = try await places.request(.get, "/v1/places/lookup?latitude=10&longitude=10", bearer: user)
            #expect(status == .notFound && body["error"]["code"].string == "address_not_found")
            (status, body) = try await places.request(.get, "/v1/places/lookup?latitude=10", bearer: user)
            #expect(status == .unprocessableContent)
            (status, body) = try await places.request(.get, "/v1/places/lookup?address=x", bearer: nil)
            #expect(status == .unauthorized)
            #expect(try await places.count("SELECT count(*) FROM places") == storedBeforeLookups, "a lookup stores nothing")
            // Saving what the user reviewed: the looked-up name and contact, with their own edits, are what is stored.
            (status, body) = try await places.request(
                .post, "/v1/places",
                json: [
                    "name": "Betahaus Café", "latitude": 52.5301, "longitude": 13.4012, "address": "Rudi-Dutschke-Straße 12, 10969 Berlin",
                    "openingHours": "Mo-Sa 08:00-22:00", "phone": "+49 30 6098 9000", "website": "https://betahaus.example", "category": "cafe",
                ],
                bearer: user)
            #expect(status == .created && body["name"].string == "Betahaus Café" && body["openingHours"].string == "Mo-Sa 08:00-22:00")
            #expect(body["phone"].string == "+49 30 6098 9000" && body["website"].string == "https://betahaus.example")
            #expect(body["address"].string == "Rudi-Dutschke-Straße 12, 10969 Berlin")
            // By address only: the user's own fields stay, the lookup fills the rest.
            (status, body) = try await places.request(
                .post, "/v1/places", json: ["name": "Betahaus Desk", "address": "Rudi-Dutschke-Straße 12, Berlin", "phone": "+49 30 1111"],
                bearer: user)
            #expect(status == .created && body["phone"].string == "+49 30 1111" && body["openingHours"].string == "Mo-Fr 08:00-20:00")
            #expect(body["address"].string == "Rudi-Dutschke-Straße 12, Berlin")
            (status, body) = try await places.request(
                .post, "/v1/places", json: ["name": "Bad Site", "latitude": 52.5, "longitude": 13.4, "website": "javascript:alert(1)"], bearer: user)
            #expect(status == .badRequest)
            (status, body) = try await places.request(.post, "/v1/places", json: ["name": "Nowhere", "address": "Atlantis 1"], bearer: user)
            #expect(status == .unprocessableContent && body["error"]["code"].string == "address_not_found")
            let before = try await places.count("SELECT count(*) FROM places")
            var badRating = PlacesUserTests.goodRating
            badRating["wifi"] = 9
            (status, body) = try await places.request(
                .post, "/v1/places", json: ["name": " ", "latitude": 52.5, "longitude": 13.4, "rating": badRating, "pinColour": "green"],
                bearer: user)
            #expect(status == .badRequest)
            let fields = Set(((body["error"]["details"].raw as? [String: Any]) ?? [:]).keys)
            #expect(fields == ["name", "rating.wifi"])
            (status, body) = try await places.request(
                .post, "/v1/places", json: ["name": "Pink", "latitude": 52.5, "longitude": 13.4, "pinColour": "pink"], bearer: user)
            #expect(status == .badRequest && body["error"]["message"].string?.contains("pinColour") == true)
            #expect(try await places.count("SELECT count(*) FROM places") == before, "nothing stored")
            // Added places await review (X3): none is published before an admin approves it.
            #expect(try await places.count("SELECT count(*) FROM outbox WHERE event_type = 'place.upserted'") == 0)
            #expect(try await places.count("SELECT count(*) FROM places WHERE review = 'pending'") == 4)
        }
    }

    @Test("X3: address look-ups are limited per account and queue at most PLACES_LOOKUP_QUEUE behind the running one (429)")
    func lookupQuota() async throws {
        try await PlacesTestHarness.run(extraEnvironment: ["PLACES_LOOKUPS_PER_ACCOUNT_HOUR": "2"]) { places in
            let user = try await places.token()
            for _ in 0..<2 {
                let (status, _) = try await places.request(.get, "/v1/places/lookup?latitude=10&longitude=10", bearer: user)
                #expect(status == .notFound)
            }
            let (status, body) = try await places.request(.get, "/v1/places/lookup?latitude=10&longitude=10", bearer: user)
            #expect(status == .tooManyRequests && body["error"]["code"].string == "rate_limited")
            let (other, _) = try await places.request(.get, "/v1/places/lookup?latitude=10&longitude=10", bearer: try await places.token())
            #expect(other == .notFound, "another account's look-ups are its own")
        }
        // Nominatim answers slowly: one runs, one waits, the rest are refused at once.
        let slow: FakeHTTPServer.Handler = { request in
            if request.path == "/reverse" { return .init(body: "{\"error\": \"Unable to geocode\"}", delay: .seconds(2)) }
            return await PlacesTestHarness.defaultProvider(request)
        }
        try await PlacesTestHarness.run(extraEnvironment: ["PLACES_LOOKUP_QUEUE": "1"], provider: slow) { places in
            // Four connections of their own (the harness' client has one, which would send them in turn).
            let url = "http://127.0.0.1:\(try #require(places.client.port))/v1/places/lookup?latitude=10&longitude=10"
            var tokens: [String] = []
            for _ in 0..<4 { tokens.append(try await places.token()) }
            let statuses = await withTaskGroup(of: Int.self) { group in
                for token in tokens {
                    group.addTask {
                        let answer = try? await LoopbackHTTP.send("GET", url, headers: ["Authorization": "Bearer \(token)"], newConnection: true)
                        return answer?.status ?? 0
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 404 }.count == 2, "\(statuses)")
            #expect(statuses.filter { $0 == 429 }.count == 2, "\(statuses)")
        }
    }
}
