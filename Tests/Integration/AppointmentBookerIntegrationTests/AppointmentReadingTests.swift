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

@Suite("appointment-booker: horoscope readings and the prayer book")
struct AppointmentReadingTests {
    @Test("X3: one account keeps at most READINGS_PER_ACCOUNT_DAY different readings in 24 hours, whatever dates it asks for")
    func test_X3_readingsPerAccountDay() async throws {
        try await BookingTestHarness.run(extraEnvironment: ["READINGS_PER_ACCOUNT_DAY": "2"]) { harness in
            let user = try await harness.tokens.token(userId: UUID().uuidString, role: .user)
            var (status, body) = try await harness.request(.get, "/v1/horoscope/leo?date=2027-01-04", bearer: user)
            #expect(status == .ok)
            (status, _) = try await harness.request(.get, "/v1/horoscope/aries?date=2027-01-04", bearer: user)
            #expect(status == .ok)
            (status, body) = try await harness.request(.get, "/v1/horoscope/virgo?date=2027-01-04", bearer: user)
            #expect(status == .tooManyRequests && body["error"]["code"].string == "too_many_readings", "\(body)")
            // A reading already kept is read again; asking for another date does not get round the count (it is
            // of the readings kept in the last 24 hours); anonymous readers are not counted.
            (status, _) = try await harness.request(.get, "/v1/horoscope/leo?date=2027-01-04", bearer: user)
            #expect(status == .ok)
            (status, body) = try await harness.request(.get, "/v1/horoscope/virgo?date=2027-01-05", bearer: user)
            #expect(status == .tooManyRequests && body["error"]["code"].string == "too_many_readings", "\(body)")
            (status, _) = try await harness.request(.get, "/v1/horoscope/virgo?date=2027-01-04")
            #expect(status == .ok)
        }
    }

    @Test("B4: the daily horoscope is free and the same for a sign all day, in English or Thai, and the same on another instance")
    func test_B4_dailyHoroscope() async throws {
        let texts = Mutex<[String]>([])
        for _ in 0..<2 {
            try await BookingTestHarness.run { harness in
                var (status, body) = try await harness.request(.get, "/v1/horoscope/leo?tz=Asia/Bangkok&date=2027-01-04")
                #expect(status == .ok && body["kind"].string == "horoscope" && body["language"].string == "en")
                let text = try #require(body["text"].string)
                texts.withLock { $0.append(text) }
                (status, body) = try await harness.request(.get, "/v1/horoscope/leo?date=2027-01-04", headers: [.acceptLanguage: "th"])
                #expect(status == .ok && body["language"].string == "th" && body["title"].string == "ราศีสิงห์" && body["text"].string != text)
                (status, body) = try await harness.request(.get, "/v1/horoscope/leo?date=2027-01-04")
                let scores = (body["scores"]["love"].int, body["scores"]["work"].int, body["scores"]["money"].int)
                (status, body) = try await harness.request(.get, "/v1/horoscope/leo?date=2027-01-05")
                #expect(body["date"].string == "2027-01-05" && body["shareUrl"].string == "http://localhost:8086/share/horoscope/leo?date=2027-01-05")
                let other = (body["scores"]["love"].int, body["scores"]["work"].int, body["scores"]["money"].int)
                (status, body) = try await harness.request(.get, "/v1/horoscope/leo?date=2027-01-04")
                let same = (body["scores"]["love"].int, body["scores"]["work"].int, body["scores"]["money"].int)
                #expect(same == scores && other != scores, "the same day reads the same, another day differently")
                (status, body) = try await harness.request(.get, "/v1/horoscope/ophiuchus")
                #expect(status == .badRequest)
                (status, body) = try await harness.request(.get, "/v1/horoscope/leo?tz=Mars/Olympus")
                #expect(status == .unprocessableContent && body["error"]["code"].string == "unknown_time_zone")
                // A guest reads it too.
                (status, _) = try await harness.request(.get, "/v1/horoscope/leo", bearer: try await harness.tokens.token(role: .guest))
                #expect(status == .ok)
            }
        }
        let seen = texts.withLock { $0 }
        #expect(seen.count == 2 && seen[0] == seen[1], "two instances, one reading")
    }

    @Test("U6, B4: purchased readings need their entitlement (403 names it), a revocation from auth's events refuses them at once")
    func test_U6_purchasedReadings() async throws {
        try await BookingTestHarness.run { harness in
            let user = UUID()
            let free = try await harness.bookerToken(user.uuidString, entitlements: [])
            var (status, body) = try await harness.request(.post, "/v1/readings/tarot", json: ["cards": ["fool", "sun", "moon"]], bearer: free)
            #expect(
                status == .forbidden && body["error"]["code"].string == "entitlement_required"
                    && body["error"]["details"]["entitlement"].string == "tarot")
            (status, body) = try await harness.request(.post, "/v1/readings/compatibility", json: ["signs": ["leo", "aries"]], bearer: free)
            #expect(status == .forbidden && body["error"]["details"]["entitlement"].string == "compatibility")
            (status, body) = try await harness.request(.post, "/v1/readings/phone-number", json: ["number": "0812345678"], bearer: free)
            #expect(status == .forbidden && body["error"]["details"]["entitlement"].string == "phone_number")
            (status, _) = try await harness.request(.post, "/v1/readings/tarot", json: ["cards": ["fool", "sun", "moon"]])
            #expect(status == .unauthorized)
            let guest = try await harness.tokens.token(role: .guest)
            (status, body) = try await harness.request(.post, "/v1/readings/fortune-stick", json: [:], bearer: guest)
            #expect(status == .forbidden && body["error"]["details"]["entitlement"].string == "fortune_stick")
            let paid = try await harness.bookerToken(user.uuidString, entitlements: ["tarot", "fortune_stick", "compatibility", "phone_number"])
            (status, body) = try await harness.request(
                .post, "/v1/readings/tarot", json: ["cards": ["fool", "ace-of-cups", "king-of-swords"]], bearer: paid)
            #expect(status == .created && body["parts"].count == 3 && body["kind"].string == "tarot", "\(body.raw ?? "")")
            (status, body) = try await harness.request(.post, "/v1/readings/tarot", json: ["cards": ["fool", "fool", "sun"]], bearer: paid)
            #expect(status == .unprocessableContent && body["error"]["code"].string == "cards_not_distinct")
            (status, body) = try await harness.request(.post, "/v1/readings/tarot", json: ["cards": ["fool", "joker", "sun"]], bearer: paid)
            #expect(status == .unprocessableContent && body["error"]["code"].string == "unknown_card")
            (status, body) = try await harness.request(.post, "/v1/readings/compatibility", json: ["signs": ["leo", "aries"]], bearer: paid)
            #expect(status == .created && body["title"].string == "Leo + Aries")
            (status, body) = try await harness.request(.post, "/v1/readings/compatibility", json: ["names": ["Somchai", "Malee"]], bearer: paid)
            #expect(status == .created)
            (status, body) = try await harness.request(
                .post, "/v1/readings/compatibility", json: ["names": ["A", "B"], "signs": ["leo", "leo"]], bearer: paid)
            #expect(status == .unprocessableContent)
            try await harness.publish(EventTypes.entitlementRevoked, EntitlementRevoked(userId: user, entitlement: "tarot"), user: user)
            #expect(try await harness.waitProcessed(atLeast: 1))
            (status, body) = try await harness.request(.post, "/v1/readings/tarot", json: ["cards": ["fool", "sun", "moon"]], bearer: paid)
            #expect(status == .forbidden && body["error"]["details"]["entitlement"].string == "tarot")
            // A grant from auth's events counts before the user's next token names it.
            let buyer = UUID()
            try await harness.publish(
                EventTypes.entitlementGranted, EntitlementGranted(userId: buyer, entitlement: "phone_number", source: "payment"), user: buyer)
            #expect(try await harness.waitProcessed(atLeast: 2))
            (status, body) = try await harness.request(
                .post, "/v1/readings/phone-number", json: ["number": "0812345678"],
                bearer: try await harness.bookerToken(buyer.uuidString, entitlements: []))
            #expect(status == .created, "\(body.raw ?? "")")
        }
    }

    @Test("B4: one fortune stick per user per day: shaking again gives the same stick; the phone-number rule answers 400 naming it")
    func test_B4_stickAndPhone() async throws {
        try await BookingTestHarness.run { harness in
            let paid = try await harness.bookerToken(entitlements: ["fortune_stick", "phone_number"])
            // Two shakes at once (a double tap) and one after: one stick, one stored reading.
            let taps = try await harness.postConcurrently("/v1/readings/fortune-stick", body: "{}", bearer: paid, times: 4)
            #expect(taps.allSatisfy { $0.0 == .created } && Set(taps.map(\.1)).count == 1, "\(taps)")
            let (_, first) = try await harness.request(.post, "/v1/readings/fortune-stick", json: [:], bearer: paid)
            let (_, second) = try await harness.request(.post, "/v1/readings/fortune-stick", json: [:], bearer: paid)
            #expect(try await harness.count("SELECT count(*)::int FROM readings WHERE kind = 'fortune-stick'") == 1)
            let number = try #require(first["stickNumber"].int)
            #expect((1...28).contains(number) && second["stickNumber"].int == number && second["id"].string == first["id"].string)
            for valid in ["0812345678", "081-234-5678", "๐๘๑๒๓๔๕๖๗๘"] {
                let (status, body) = try await harness.request(.post, "/v1/readings/phone-number", json: ["number": valid], bearer: paid)
                #expect(status == .created && body["parts"].count == 9, "\(valid): \(body.raw ?? "")")
            }
            for invalid in ["081234567", "08123456789", "081234567a", "081-234-567x"] {
                let (status, body) = try await harness.request(.post, "/v1/readings/phone-number", json: ["number": invalid], bearer: paid)
                #expect(
                    status == .badRequest && body["error"]["code"].string == "invalid_phone_number"
                        && body["error"]["details"]["number"].string == PhoneNumberRule.rule, "\(invalid)")
            }
        }
    }

    @Test("B4: readings are kept, listed newest first, and shown without a token from their share link")
    func test_B4_historyAndShare() async throws {
        try await BookingTestHarness.run { harness in
            let paid = try await harness.bookerToken(entitlements: ["tarot", "phone_number"])
            let (_, tarot) = try await harness.request(.post, "/v1/readings/tarot", json: ["cards": ["star", "tower", "world"]], bearer: paid)
            let (_, phone) = try await harness.request(.post, "/v1/readings/phone-number", json: ["number": "0899999999"], bearer: paid)
            var (status, body) = try await harness.request(.get, "/v1/me/readings?pageSize=1", bearer: paid)
            #expect(
                status == .ok && body["readings"].count == 1 && body["readings"][0]["id"].string == phone["id"].string && body["hasMore"].bool == true
            )
            let share = try #require(tarot["shareUrl"].string)
            (status, body) = try await harness.request(.get, try Self.sharedReadingPath(share), headers: [.acceptLanguage: "th"])
            #expect(
                status == .ok && body["id"].string == tarot["id"].string && body["language"].string == "th"
                    && body["title"].string == "ไพ่ทาโรต์: อดีต ปัจจุบัน อนาคต")
            #expect(try #require(tarot["shareText"].string).hasSuffix(share))
            (status, _) = try await harness.request(.get, "/v1/shared/readings/AAAAAAAAAA")
            #expect(status == .notFound)
            (status, _) = try await harness.request(.get, "/v1/me/readings")
            #expect(status == .unauthorized)
            // A signed-in caller's daily horoscope joins their history, once per sign and day, shared by its id.
            let (_, horoscope) = try await harness.request(.get, "/v1/horoscope/virgo", bearer: paid)
            let (_, again) = try await harness.request(.get, "/v1/horoscope/virgo", bearer: paid)
            #expect(horoscope["id"].string != nil && again["id"].string == horoscope["id"].string)
            (status, body) = try await harness.request(.get, "/v1/me/readings", bearer: paid)
            #expect(body["readings"].count == 3 && body["readings"][0]["kind"].string == "horoscope")
            (status, body) = try await harness.request(.get, try Self.sharedReadingPath(try #require(horoscope["shareUrl"].string)))
            #expect(status == .ok && body["title"].string == "Virgo")
        }
    }

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
    func test_B4_placesToPrayFromEvents() async throws {
        try await BookingTestHarness.run { harness in
            let engine = ReadingEngine(content: try ReadingContent.bundled(), key: SymmetricKey(data: Data(TestSecrets.readingKey.utf8)))
            let content = try ReadingContent.bundled()
            let (sign, day) = try Self.badHoroscope(engine, content)
            let temple = UUID(), cafe = UUID(), far = UUID()
            for (id, name, category, latitude) in [
                (temple, "Wat Test", "worship", 13.7563), (cafe, "Cafe Test", "cafe", 13.7564), (far, "Far Shrine", "worship", 15.0),
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
                        placeId: temple, name: "Wat Test", category: "other", latitude: 13.7563, longitude: 100.5018, address: nil,
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
            (status, body) = try await harness.request(.get, try Self.sharedReadingPath(shareUrl))
            #expect(status == .ok && body["ceremony"]["steps"].count >= 3, "\(body.raw ?? "")")
        }
    }

    @Test("B4: where none are known, places-importer is asked once per cell; looking until it answers, then found or none")
    func test_B4_placesOfWorshipAskedFor() async throws {
        try await BookingTestHarness.run { harness in
            let engine = ReadingEngine(content: try ReadingContent.bundled(), key: SymmetricKey(data: Data(TestSecrets.readingKey.utf8)))
            let content = try ReadingContent.bundled()
            let (sign, day) = try Self.badHoroscope(engine, content)
            let chiangMai = "/v1/horoscope/\(sign.id)?date=\(day)&latitude=18.7883&longitude=98.9853"
            var (status, body) = try await harness.request(.get, chiangMai)
            #expect(status == .ok && body["placesStatus"].string == "looking" && body["placesToPray"].count == 0, "\(body.raw ?? "")")
            // Asked again before an answer: still looking, and not asked twice.
            (status, body) = try await harness.request(.get, chiangMai)
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
                    let (_, body) = try await harness.request(.get, chiangMai)
                    return body["placesStatus"].string == "found" && body["placesToPray"][0]["name"].string == "Wat Phra Singh"
                })

            // An answer of none: the reading says so rather than looking for ever.
            let nowhere = "/v1/horoscope/\(sign.id)?date=\(day)&latitude=-45.05&longitude=170.05"
            (status, body) = try await harness.request(.get, nowhere)
            #expect(body["placesStatus"].string == "looking")
            try await harness.publish(
                EventEnvelope(
                    type: EventTypes.worshipPlacesFound, producer: "places-importer", key: "-45.1,170.0",
                    payload: WorshipPlacesFound(requestId: "-45.1,170.0", places: [])),
                to: harness.placesTopic)
            #expect(try await eventually { try await harness.request(.get, nowhere).1["placesStatus"].string == "none" })
            // A good reading asks for nothing.
            let good = try #require(content.signs.first { engine.horoscope(sign: $0, on: day).verdict != .bad })
            (status, body) = try await harness.request(.get, "/v1/horoscope/\(good.id)?date=\(day)&latitude=10.05&longitude=10.05")
            #expect(body["placesStatus"].raw == nil)
            #expect(try await harness.count("SELECT count(*)::int FROM worship_requests") == 2)
        }
    }

    @Test("B4, X3: past WORSHIP_REQUESTS_PER_HOUR new cells an hour, a reading says looking and asks nobody")
    func test_B4_worshipRequestsLimited() async throws {
        try await BookingTestHarness.run(extraEnvironment: ["WORSHIP_REQUESTS_PER_HOUR": "1"]) { harness in
            let engine = ReadingEngine(content: try ReadingContent.bundled(), key: SymmetricKey(data: Data(TestSecrets.readingKey.utf8)))
            let content = try ReadingContent.bundled()
            let (sign, day) = try Self.badHoroscope(engine, content)
            for (latitude, longitude) in [(10.05, 10.05), (20.05, 20.05), (30.05, 30.05)] {
                let (status, body) = try await harness.request(
                    .get, "/v1/horoscope/\(sign.id)?date=\(day)&latitude=\(latitude)&longitude=\(longitude)")
                #expect(status == .ok && body["placesStatus"].string == "looking")
            }
            #expect(try await harness.count("SELECT count(*)::int FROM worship_requests") == 1, "one cell asked; the others wait")
            #expect(try await harness.count("SELECT count(*)::int FROM outbox WHERE event_type = 'worship.places-wanted'") == 1)
        }
    }

    @Test("B4: the prayer book is free in both languages; admins add, edit and remove prayers")
    func test_B4_prayerBook() async throws {
        try await BookingTestHarness.run { harness in
            var (status, body) = try await harness.request(.get, "/v1/prayers")
            #expect(status == .ok && body["prayers"].count == 2)
            (status, body) = try await harness.request(.get, "/v1/prayers", headers: [.acceptLanguage: "th"])
            #expect(body["prayers"][0]["title"].string == "บทสวดยามเช้า")
            let admin = try await harness.adminToken()
            let prayer: [String: Any] = [
                "titleEn": "Safe travels", "titleTh": "เดินทางปลอดภัย", "textEn": "May the road be kind.", "textTh": "ขอให้เส้นทางปลอดภัย",
                "mediaUrl": "https://media.example.com/safe.mp3",
            ]
            (status, body) = try await harness.request(.post, "/v1/admin/prayers", json: prayer, bearer: try await harness.bookerToken())
            #expect(status == .forbidden)
            (status, body) = try await harness.request(.post, "/v1/admin/prayers", json: prayer, bearer: admin)
            #expect(status == .created && body["mediaUrl"].string == "https://media.example.com/safe.mp3")
            let id = try #require(body["id"].string)
            (status, body) = try await harness.request(.patch, "/v1/admin/prayers/\(id)", json: ["titleEn": "Safe journeys"], bearer: admin)
            #expect(status == .ok && body["title"].string == "Safe journeys")
            (status, body) = try await harness.request(.get, "/v1/prayers/\(id)", headers: [.acceptLanguage: "th"])
            #expect(status == .ok && body["text"].string == "ขอให้เส้นทางปลอดภัย")
            (status, _) = try await harness.request(.delete, "/v1/admin/prayers/\(id)", bearer: admin)
            #expect(status == .noContent)
            (status, _) = try await harness.request(.get, "/v1/prayers/\(id)")
            #expect(status == .notFound)
        }
    }

    /// The app's JSON of a shared reading, from its share link (the public page's address ends with the share id).
    static func sharedReadingPath(_ shareUrl: String) throws -> String {
        let shareId = try #require(shareUrl.split(separator: "/").last.map(String.init))
        #expect(shareUrl == "http://localhost:8086/share/readings/\(shareId)", "an absolute link from PUBLIC_BASE_URL")
        return "/v1/shared/readings/\(shareId)"
    }
}
