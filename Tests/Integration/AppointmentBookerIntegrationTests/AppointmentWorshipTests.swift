import Crypto
import Foundation
import HTTPTypes
import PlatformCore
import PlatformEvents
import PlatformHTTP
import ServiceTestSupport
import Synchronization
import TestSupport
import Testing

@testable import AppointmentBooker

/// Places to pray after a bad reading (B4): from places-importer's events, asked of it per cell when none are known,
/// and the requests' hourly limit (X3).
@Suite("appointment-booker: places to pray after a bad reading")
struct AppointmentWorshipTests {
    /// A sign and day from 2027 on whose horoscope is bad, found with the service's own key.
    static func badHoroscope(_ engine: ReadingEngine, _ content: ReadingContent) throws -> (ReadingContent.Sign, CivilDate) {
        let start = try #require(CivilDate(parsing: "2027-01-01"))
        return try #require(
            (0..<120).lazy.flatMap { offset in content.signs.map { ($0, start.adding(days: offset)) } }
                .first { engine.horoscope(sign: $0.0, on: $0.1).verdict == .bad })
    }

    @Test(
        "B4: after a bad reading, places of worship near the caller (from places-importer's events; other places never) and how to remove the bad luck"
    )
    func placesToPrayFromEvents() async throws {
        try await BookingTestHarness.run { harness in
            let engine = ReadingEngine(content: try ReadingContent.bundled(), key: SymmetricKey(data: Data(TestSecrets.readingKey.utf8)))
            let content = try ReadingContent.bundled()
            let (sign, day) = try Self.badHoroscope(engine, content)
            let temple = UUID(), cafe = UUID(), far = UUID()
            for (id, name, category, latitude) in [
                (temple, "Wat Test", PlaceCategory.worship, 13.7563), (cafe, "Cafe Test", .cafe, 13.7564), (far, "Far Shrine", .worship, 15.0),
            ] {
                try await harness.publish(
                    EventEnvelope(
                        type: EventTypes.placeUpserted, producer: "places-importer", key: id.uuidString,
                        payload: PlaceUpserted(
                            placeId: id, name: name, category: category, latitude: latitude, longitude: 100.5018, address: nil, openingHours: nil,
                            phone: nil, website: nil, sources: ["osm:node/\(name.count)"])),
                    to: harness.placesTopic)
            }
            #expect(try await eventually { try await harness.count("SELECT count(*)::int FROM worship_places") == 2 })
            var (status, body) = try await harness.request(.get, "/v1/horoscope/\(sign.id)?date=\(day)&latitude=13.7563&longitude=100.5018")
            #expect(status == .ok && body["verdict"].string == "bad")
            #expect(body["placesToPray"].array.compactMap { $0["name"].string } == ["Wat Test"], "\(body.raw ?? "")")
            // How to remove the bad luck comes with it: the ceremony of the reading's weakest life area.
            let bad = engine.horoscope(sign: sign, on: day)
            let weakest = LifeArea.weakest(in: bad.scores)
            let ceremony = try #require(content.ceremonies[weakest.rawValue])
            #expect(body["ceremony"]["area"].string == weakest.rawValue, "\(body.raw ?? "")")
            #expect(body["ceremony"]["title"].string == ceremony.title.en && body["ceremony"]["place"].string == ceremony.place.rawValue)
            #expect(body["ceremony"]["steps"].array.compactMap(\.string) == ceremony.steps.map(\.en))
            #expect(body["ceremony"]["bring"].array.compactMap(\.string) == ceremony.bring.map(\.en))
            (status, body) = try await harness.request(.get, "/v1/horoscope/\(sign.id)?date=\(day)", headers: [.acceptLanguage: "th"])
            #expect(body["ceremony"]["title"].string == ceremony.title.th && body["ceremony"]["placeName"].string == ceremony.placeName.th)
            // A good reading suggests nothing.
            let good = try #require(content.signs.first { engine.horoscope(sign: $0, on: day).verdict != .bad })
            (status, body) = try await harness.request(.get, "/v1/horoscope/\(good.id)?date=\(day)&latitude=13.7563&longitude=100.5018")
            #expect(status == .ok && body["placesToPray"].raw == nil && body["ceremony"].raw == nil)
            // A temple that became something else leaves the read model.
            try await harness.publish(
                EventEnvelope(
                    type: EventTypes.placeUpserted, producer: "places-importer", key: temple.uuidString,
                    payload: PlaceUpserted(
                        placeId: temple, name: "Wat Test", category: .other, latitude: 13.7563, longitude: 100.5018, address: nil,
                        openingHours: nil, phone: nil, website: nil, sources: [])),
                to: harness.placesTopic)
            #expect(try await eventually { try await harness.count("SELECT count(*)::int FROM worship_places") == 1 })
            (status, body) = try await harness.request(.get, "/v1/horoscope/leo?latitude=13.7")
            #expect(status == .unprocessableContent, "latitude without longitude")
            // A bad purchased reading suggests them too: a phone number whose reading today is bad.
            let today = try ReadingRequest.day(tz: nil, date: nil)
            let badNumber = try #require(
                (0..<100_000).lazy.compactMap { n -> PhoneDigits? in PhoneDigits(String(format: "%010d", n * 7_919).compactMap(\.wholeNumberValue)) }
                    .first { engine.phoneNumber($0, on: today).verdict == .bad })
            (status, body) = try await harness.request(
                .post, "/v1/readings/phone-number",
                json: ["number": badNumber.digits.map(String.init).joined(), "latitude": 15.0, "longitude": 100.5018],
                bearer: try await harness.bookerToken(entitlements: ["phone_number"]))
            #expect(
                status == .created && body["verdict"].string == "bad" && body["placesToPray"][0]["name"].string == "Far Shrine", "\(body.raw ?? "")")
            // The shared reading carries the ceremony too.
            let shareUrl = try #require(body["shareUrl"].string)
            (status, body) = try await harness.request(.get, try AppointmentReadingTests.sharedReadingPath(shareUrl))
            #expect(status == .ok && body["ceremony"]["steps"].count >= 3, "\(body.raw ?? "")")
        }
    }

    @Test("B4: where none are known, places-importer is asked once per cell; looking until it answers, then found or none")
    func placesOfWorshipAskedFor() async throws {
        try await BookingTestHarness.run { harness in
            let engine = ReadingEngine(content: try ReadingContent.bundled(), key: SymmetricKey(data: Data(TestSecrets.readingKey.utf8)))
            let content = try ReadingContent.bundled()
            let (sign, day) = try Self.badHoroscope(engine, content)
            let chiangMai = "/v1/horoscope/\(sign.id)?date=\(day)&latitude=18.7883&longitude=98.9853"
            // Only a member's reading asks places-importer.
            let member = try await harness.bookerToken()
            var (status, body) = try await harness.request(.get, chiangMai, bearer: member)
            #expect(status == .ok && body["placesStatus"].string == "looking" && body["placesToPray"].count == 0, "\(body.raw ?? "")")
            // Asked again before an answer: still looking, and not asked twice.
            (status, body) = try await harness.request(.get, chiangMai, bearer: member)
            #expect(body["placesStatus"].string == "looking")
            let requests = try makeConsumer(topics: [harness.placeRequestsTopic], group: "check-\(uniqueSuffix())", startPosition: .beginning)
            let asked = try await collect(2, from: requests, timeout: .seconds(5))
            await requests.close()
            #expect(asked.count == 1, "one request per cell")
            let wanted = try #require(
                try asked.first.map { try EventCoding.decoder.decode(EventEnvelope<WorshipPlacesWanted>.self, from: Data($0.value)) })
            #expect(wanted.type == EventTypes.worshipPlacesWanted && wanted.payload.requestId == "18.7,98.9" && wanted.key == "18.7,98.9")
            #expect(wanted.payload.latitude == 18.7883 && wanted.payload.radiusMeters == 20_000)

            // places-importer's answer brings the places themselves.
            let temple = UUID()
            try await harness.publish(
                EventEnvelope(
                    type: EventTypes.worshipPlacesFound, producer: "places-importer", key: "18.7,98.9",
                    payload: WorshipPlacesFound(
                        requestId: "18.7,98.9",
                        places: [.init(placeId: temple, name: "Wat Phra Singh", latitude: 18.7886, longitude: 98.9819, address: "Samlan Rd")])),
                to: harness.placesTopic)
            #expect(
                try await eventually {
                    let (_, body) = try await harness.request(.get, chiangMai, bearer: member)
                    return body["placesStatus"].string == "found" && body["placesToPray"][0]["name"].string == "Wat Phra Singh"
                })

            // An answer of none: the reading says so rather than looking for ever.
            let nowhere = "/v1/horoscope/\(sign.id)?date=\(day)&latitude=-45.05&longitude=170.05"
            (status, body) = try await harness.request(.get, nowhere, bearer: member)
            #expect(body["placesStatus"].string == "looking")
            try await harness.publish(
                EventEnvelope(
                    type: EventTypes.worshipPlacesFound, producer: "places-importer", key: "-45.1,170.0",
                    payload: WorshipPlacesFound(requestId: "-45.1,170.0", places: [])),
                to: harness.placesTopic)
            #expect(try await eventually { try await harness.request(.get, nowhere, bearer: member).1["placesStatus"].string == "none" })
            // A good reading asks for nothing.
            let good = try #require(content.signs.first { engine.horoscope(sign: $0, on: day).verdict != .bad })
            (status, body) = try await harness.request(.get, "/v1/horoscope/\(good.id)?date=\(day)&latitude=10.05&longitude=10.05", bearer: member)
            #expect(body["placesStatus"].raw == nil)
            #expect(try await harness.count("SELECT count(*)::int FROM worship_requests") == 2)
        }
    }

    @Test("B4, X3: past WORSHIP_REQUESTS_PER_HOUR new cells an hour, a reading says looking and asks nobody")
    func worshipRequestsLimited() async throws {
        try await BookingTestHarness.run(extraEnvironment: ["WORSHIP_REQUESTS_PER_HOUR": "1"]) { harness in
            let engine = ReadingEngine(content: try ReadingContent.bundled(), key: SymmetricKey(data: Data(TestSecrets.readingKey.utf8)))
            let content = try ReadingContent.bundled()
            let (sign, day) = try Self.badHoroscope(engine, content)
            let member = try await harness.bookerToken()
            for (latitude, longitude) in [(10.05, 10.05), (20.05, 20.05), (30.05, 30.05)] {
                let (status, body) = try await harness.request(
                    .get, "/v1/horoscope/\(sign.id)?date=\(day)&latitude=\(latitude)&longitude=\(longitude)", bearer: member)
                #expect(status == .ok && body["placesStatus"].string == "looking")
            }
            #expect(try await harness.count("SELECT count(*)::int FROM worship_requests") == 1, "one cell asked; the others wait")
            #expect(try await harness.count("SELECT count(*)::int FROM outbox WHERE event_type = 'worship.places-wanted'") == 1)
        }
    }

    @Test("B4, X3: one client network spends at most WORSHIP_REQUESTS_PER_NETWORK_PER_HOUR of the places budget; another network still asks")
    func worshipRequestsPerNetwork() async throws {
        let environment = ["WORSHIP_REQUESTS_PER_HOUR": "10", "WORSHIP_REQUESTS_PER_NETWORK_PER_HOUR": "2", "TRUSTED_PROXIES": "127.0.0.1, ::1"]
        try await BookingTestHarness.run(extraEnvironment: environment) { harness in
            let engine = ReadingEngine(content: try ReadingContent.bundled(), key: SymmetricKey(data: Data(TestSecrets.readingKey.utf8)))
            let (sign, day) = try Self.badHoroscope(engine, try ReadingContent.bundled())
            let member = try await harness.bookerToken()
            func read(_ latitude: Double, from client: String) async throws -> String? {
                let (status, body) = try await harness.request(
                    .get, "/v1/horoscope/\(sign.id)?date=\(day)&latitude=\(latitude)&longitude=\(latitude)", bearer: member,
                    headers: [HTTPField.Name("X-Forwarded-For")!: client])
                #expect(status == .ok)
                return body["placesStatus"].string
            }
            // Three members' cells from one /24 (two addresses in it), then one from another network.
            for (latitude, client) in [(10.05, "203.0.113.7"), (20.05, "203.0.113.200"), (30.05, "203.0.113.7")] {
                #expect(try await read(latitude, from: client) == "looking")
            }
            #expect(try await harness.count("SELECT count(*)::int FROM worship_requests") == 2, "the network's two; the third waits")
            #expect(try await read(40.05, from: "198.51.100.4") == "looking")
            #expect(try await harness.count("SELECT count(*)::int FROM worship_requests") == 3, "another network still asks")
            #expect(
                try await harness.count("SELECT count(*)::int FROM worship_asks WHERE network = '203.0.113.0/24'") == 2,
                "counted by network, no account")
        }
    }

    @Test("B4, X3: an anonymous or guest bad reading writes no request and no outbox row; a latitude beyond 85° is 422 for anyone")
    func anonymousReadingNeverAsks() async throws {
        try await BookingTestHarness.run { harness in
            let engine = ReadingEngine(content: try ReadingContent.bundled(), key: SymmetricKey(data: Data(TestSecrets.readingKey.utf8)))
            let (sign, day) = try Self.badHoroscope(engine, try ReadingContent.bundled())
            let guest = try await harness.tokens.token(userId: UUID().uuidString, role: .guest)
            let member = try await harness.bookerToken()
            // The point that once asked places-importer for a strip round the globe is refused before anything is read.
            for bearer in [nil, guest, member] {
                let (status, body) = try await harness.request(
                    .get, "/v1/horoscope/\(sign.id)?date=\(day)&latitude=89.95&longitude=0.05", bearer: bearer)
                #expect(status == .unprocessableContent && body["error"]["code"].string == "validation_failed", "\(body.raw ?? "")")
                #expect(body["error"]["details"]["latitude"].string != nil, "\(body.raw ?? "")")
            }
            let chiangMai = "/v1/horoscope/\(sign.id)?date=\(day)&latitude=18.7883&longitude=98.9853"
            for bearer in [nil, guest] {
                let (status, body) = try await harness.request(.get, chiangMai, bearer: bearer)
                #expect(status == .ok && body["verdict"].string == "bad", "\(body.raw ?? "")")
                #expect(body["placesStatus"].string == "none" && body["placesToPray"].count == 0, "nobody asked: \(body.raw ?? "")")
            }
            #expect(try await harness.count("SELECT count(*)::int FROM worship_requests") == 0)
            #expect(try await harness.count("SELECT count(*)::int FROM outbox") == 0)
            // A member's reading asks; an anonymous one then reports that request, still without writing.
            #expect(try await harness.request(.get, chiangMai, bearer: member).1["placesStatus"].string == "looking")
            #expect(try await harness.request(.get, chiangMai).1["placesStatus"].string == "looking")
            #expect(try await harness.count("SELECT count(*)::int FROM worship_requests") == 1)
            #expect(try await harness.count("SELECT count(*)::int FROM outbox WHERE event_type = 'worship.places-wanted'") == 1)
        }
    }
}
