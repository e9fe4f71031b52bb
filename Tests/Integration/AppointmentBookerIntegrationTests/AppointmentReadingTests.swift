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
    func readingsPerAccountDay() async throws {
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
    func dailyHoroscope() async throws {
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
    func purchasedReadings() async throws {
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
            try await harness.publish(EventTypes.entitlementRevoked, EntitlementRevoked(userId: user, entitlement: .tarot), user: user)
            #expect(try await harness.waitProcessed(atLeast: 1))
            (status, body) = try await harness.request(.post, "/v1/readings/tarot", json: ["cards": ["fool", "sun", "moon"]], bearer: paid)
            #expect(status == .forbidden && body["error"]["details"]["entitlement"].string == "tarot")
            // A grant from auth's events counts before the user's next token names it.
            let buyer = UUID()
            try await harness.publish(
                EventTypes.entitlementGranted, EntitlementGranted(userId: buyer, entitlement: .phoneNumber, source: .payment), user: buyer)
            #expect(try await harness.waitProcessed(atLeast: 2))
            (status, body) = try await harness.request(
                .post, "/v1/readings/phone-number", json: ["number": "0812345678"],
                bearer: try await harness.bookerToken(buyer.uuidString, entitlements: []))
            #expect(status == .created, "\(body.raw ?? "")")
        }
    }

    @Test("B4: one fortune stick per user per day: shaking again gives the same stick; the phone-number rule answers 400 naming it")
    func stickAndPhone() async throws {
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
    func historyAndShare() async throws {
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

    @Test("B4: the prayer book is free in both languages; admins add, edit and remove prayers")
    func prayerBook() async throws {
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
