import Crypto
import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformPostgres
import ServiceTestSupport
import Synchronization
import TestSupport
import Testing

@testable import WarningDetector

/// Notifications through a fake APNs provider over real HTTP/2 and TLS (A4, A5).
@Suite("warning-detector: push notifications")
struct WarningPushTests {
    static let berlin = WarningFixtures.berlin
    static let suva = WarningFixtures.suva

    static func sentTokens(_ harness: WarningTestHarness) -> [String] {
        harness.push.requests.map { String($0.path.dropFirst("/3/device/".count)) }
    }

    /// The provider token is an ES256 JWT from the configured team and key, signed with the configured key.
    static func checkProviderToken(_ header: String?, key: P256.Signing.PublicKey) throws {
        let token = try #require(header?.split(separator: " ").last.map(String.init))
        let parts = token.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let decode = { (part: String) throws -> Data in
            var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            return try #require(Data(base64Encoded: base64))
        }
        let head = try #require(try JSONSerialization.jsonObject(with: try decode(parts[0])) as? [String: Any])
        let claims = try #require(try JSONSerialization.jsonObject(with: try decode(parts[1])) as? [String: Any])
        #expect(head["alg"] as? String == "ES256" && head["kid"] as? String == WarningTestHarness.keyId)
        #expect(claims["iss"] as? String == WarningTestHarness.teamId && claims["iat"] != nil)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try decode(parts[2]))
        #expect(key.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
    }

    @Test("A4, A5: a new warning reaches exactly the devices whose settings allow it, once, over HTTP/2 with a provider token")
    func warningAudience() async throws {
        try await WarningTestHarness.run { harness in
            let here = try await harness.device(currentCityId: Self.berlin.id)
            let hereButOff = try await harness.device(currentCityId: Self.berlin.id)
            var (status, _) = try await harness.request(
                .put, "/v1/me/notification-settings", json: ["currentLocation": ["warnings": false]],
                bearer: try await harness.token(hereButOff.user))
            #expect(status == .ok)
            let fan = try await harness.device(currentCityId: Self.suva.id)
            try await harness.favourite(fan.user, Self.berlin)
            let fanButOff = try await harness.device(currentCityId: nil)
            try await harness.favourite(fanButOff.user, Self.berlin)
            (status, _) = try await harness.request(
                .put, "/v1/me/notification-settings", json: ["favourites": [["cityId": Self.berlin.id, "warnings": false]]],
                bearer: try await harness.token(fanButOff.user))
            #expect(status == .ok)
            let former = try await harness.device(currentCityId: Self.suva.id)
            try await harness.favourite(former.user, Self.berlin)
            try await harness.favourite(former.user, Self.berlin, added: false)
            #expect(try await harness.waitProcessed(atLeast: 4))
            // The same forecast event twice: one warning, one message per device.
            let envelope = try await harness.publishForecast(WarningFixtures.heat(36, hours: 1...3))
            try await harness.publish(envelope, to: harness.forecastsTopic)
            #expect(try await eventually { Self.sentTokens(harness).count >= 2 })
            try await Task.sleep(for: .milliseconds(500))
            #expect(Set(Self.sentTokens(harness)) == [here.token, fan.token] && Self.sentTokens(harness).count == 2)
            let request = try #require(harness.push.requests.first)
            #expect(request.isHTTP2, "APNs speaks HTTP/2")
            #expect(request.method == "POST" && request.headers["apns-topic"] == "com.example.weather")
            #expect(request.headers["apns-push-type"] == "alert" && request.headers["apns-collapse-id"]?.hasPrefix("warning:") == true)
            try Self.checkProviderToken(request.headers["authorization"], key: harness.pushKey.publicKey)
            let payload = try #require(try JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [String: Any])
            let alert = try #require((payload["aps"] as? [String: Any])?["alert"] as? [String: Any])
            #expect(alert["title"] as? String == "Watch out! Severe heat warning" && alert["subtitle"] as? String == "Berlin")
            #expect(try await eventually { try await harness.count("SELECT count(*)::int FROM push_deliveries WHERE status = 'sent'") == 2 })
            let admin = try await harness.token("admin-1", role: .admin)
            let (_, log) = try await harness.request(.get, "/v1/admin/push-deliveries?userId=\(here.user)", bearer: admin)
            #expect(log["deliveries"].array.map { $0["status"].string } == ["sent"])
            // Without a filter the log lists every user's deliveries (an untyped NULL bind made this a 500).
            let (logStatus, all) = try await harness.request(.get, "/v1/admin/push-deliveries", bearer: admin)
            #expect(logStatus == .ok && all["deliveries"].array.count >= 2)
        }
    }

    @Test("U8, A5, A7: a warning's push is written for each reader: Thai in Bangkok time, English in London time")
    func warningInReadersZoneAndLanguage() async throws {
        try await WarningTestHarness.run { harness in
            let thai = try await harness.device(currentCityId: Self.berlin.id, timeZone: "Asia/Bangkok", language: "th")
            let english = try await harness.device(currentCityId: Self.berlin.id, timeZone: "Europe/London", language: "en")
            let envelope = try await harness.publishForecast(WarningFixtures.heat(36, hours: 1...3))
            try await harness.publish(envelope, to: harness.forecastsTopic)
            #expect(try await eventually { Self.sentTokens(harness).count >= 2 })
            let requests = harness.push.requests
            let thaiBody = try #require(requests.first { $0.path.hasSuffix(thai.token) }).body
            #expect(
                thaiBody.contains("ระวัง! เตือนภัยอากาศร้อนจัด ระดับรุนแรง") && thaiBody.contains("ตั้งแต่วัน")
                    && thaiBody.contains("Asia/Bangkok") && thaiBody.contains("36 °C"), "\(thaiBody)")
            let englishBody = try #require(requests.first { $0.path.hasSuffix(english.token) }).body
            #expect(
                englishBody.contains("Watch out! Severe heat warning") && englishBody.contains("From ")
                    && englishBody.contains("Europe/London") && !englishBody.contains("Z\""), "\(englishBody)")
        }
    }

    @Test("A5: the provider's 410 removes the token; an outage is retried with backoff until delivered")
    func goneTokensAndOutages() async throws {
        let failuresLeft = Countdown(3)
        try await WarningTestHarness.run(push: { request in
            if request.path.hasSuffix(String(repeating: "dead", count: 16)) {
                return .init(status: 410, body: #"{"reason":"Unregistered","timestamp":1790000000000}"#)
            }
            if failuresLeft.takeOne() { return .init(status: 503, headers: ["retry-after": "0"], body: #"{"reason":"ServiceUnavailable"}"#) }
            return .init(headers: ["apns-id": UUID().uuidString], body: "")
        }) { harness in
            let dead = String(repeating: "dead", count: 16)
            let user = UUID().uuidString
            var (status, _) = try await harness.request(
                .put, "/v1/me/devices/\(dead)", json: ["currentCityId": Self.berlin.id], bearer: try await harness.token(user))
            #expect(status == .ok)
            let alive = try await harness.device(currentCityId: Self.berlin.id)
            try await harness.publishForecast(WarningFixtures.forecast { index, hour in if index == 2 { hour.snowfallCm = 4 } })
            #expect(try await eventually { try await harness.count("SELECT count(*)::int FROM devices WHERE token = '\(dead)'") == 0 })
            #expect(try await harness.count("SELECT count(*)::int FROM push_deliveries WHERE status = 'token-removed'") == 1)
            #expect(
                try await eventually {
                    try await harness.count("SELECT count(*)::int FROM push_deliveries WHERE device_token = '\(alive.token)' AND status = 'sent'")
                        == 1
                })
            let attempts = try await harness.count("SELECT attempts FROM push_deliveries WHERE device_token = '\(alive.token)'")
            #expect(attempts >= 2, "the 503s were retried")
            var body: JSONValue
            (status, body) = try await harness.request(.get, "/v1/me/devices", bearer: try await harness.token(user))
            #expect(status == .ok && body["devices"].array.isEmpty)
        }
    }

    @Test("A5: a device registered while its city's first forecast is being stored still follows the city's zone")
    func zoneRace() async throws {
        // Seen in CI: the device's insert read no zone (the forecast was not committed yet) and the forecast's
        // trigger did not see the device (not committed either), so the device kept UTC. Here the forecast's
        // transaction is held open while the device registers.
        try await WarningTestHarness.run { harness in
            let city = String(decoding: try JSONEncoder().encode(Self.suva), as: UTF8.self)
            let registration = Mutex<Task<(user: String, token: String), any Error>?>(nil)
            try await harness.db.client.withTransaction(logger: harness.db.logger) { connection in
                try await connection.query(
                    """
                    INSERT INTO city_forecasts (city_id, city, fetched_at, temperature_c, condition, description)
                    VALUES (\(Self.suva.id), \(city)::jsonb, now(), 27.2, 'clear', 'clear sky')
                    """, logger: harness.db.logger)
                registration.withLock { $0 = Task { try await harness.device(currentCityId: Self.suva.id) } }
                // The registration is under way (it waits for the city's lock) while this transaction stays open.
                try await Task.sleep(for: .milliseconds(800))
            }
            let device = try await #require(registration.withLock { $0 }).value
            #expect(
                try await harness.count(
                    "SELECT count(*)::int FROM devices WHERE token = '\(device.token)' AND effective_zone = 'Pacific/Fiji'") == 1)
        }
    }

    @Test("A5: the daily forecast goes out once at the start of the local day, for the current location and favourites that allow it")
    func dailyForecast() async throws {
        try await WarningTestHarness.run { harness in
            // 00:30 in Berlin, 18:30 the day before in New York: the scheduler's moment; the forecasts were fetched an hour
            // before it, Berlin's with its hours warming from 1 °C by half a degree an hour (no warning anywhere).
            let now = Date(timeIntervalSince1970: 1_795_476_600)
            try await harness.publishForecast(
                WarningFixtures.forecast(Self.berlin, fetchedAt: now.addingTimeInterval(-3_600), temperature: 3.6, condition: .fog) { index, hour in
                    hour.temperatureC = 1 + Double(index) / 2
                })
            try await harness.publishForecast(
                WarningFixtures.forecast(Self.suva, fetchedAt: now.addingTimeInterval(-3_600), temperature: 27.2, condition: .clear))
            let morning = try await harness.device(currentCityId: Self.berlin.id, timeZone: "Europe/Berlin")
            try await harness.favourite(morning.user, Self.suva)
            let quiet = try await harness.device(currentCityId: Self.berlin.id, timeZone: "Europe/Berlin")
            let (status, _) = try await harness.request(
                .put, "/v1/me/notification-settings", json: ["currentLocation": ["forecasts": false]],
                bearer: try await harness.token(quiet.user))
            #expect(status == .ok)
            let elsewhere = try await harness.device(currentCityId: Self.berlin.id, timeZone: "America/New_York")
            // Without a zone of its own, a device's day follows its current city's, learnt from the city's forecast.
            let suvaFollower = try await harness.device(currentCityId: Self.suva.id)
            #expect(try await harness.waitProcessed(atLeast: 3))
            #expect(
                try await harness.count("SELECT count(*)::int FROM devices WHERE token = '\(suvaFollower.token)' AND effective_zone = 'Pacific/Fiji'")
                    == 1)
            let earlyBird = try await harness.device(currentCityId: 424_242)
            #expect(try await harness.count("SELECT count(*)::int FROM devices WHERE token = '\(earlyBird.token)' AND effective_zone = 'UTC'") == 1)
            // The round reads the due zones' devices through their index, not the whole table.
            let plan = try await harness.db.client.inTransaction(logger: harness.db.logger) { connection in
                try await connection.query("SET LOCAL enable_seqscan = off", logger: harness.db.logger)
                return try await connection.query(
                    "EXPLAIN SELECT token FROM devices WHERE effective_zone = ANY(ARRAY['Europe/Berlin', 'Pacific/Fiji'])", logger: harness.db.logger
                ).decode(String.self).collectAll().joined(separator: "\n")
            }
            #expect(plan.contains("devices_by_zone"), "\(plan)")
            let logger = Logger(label: "daily-test")
            let scheduler = DailyForecastScheduler(
                client: harness.db.client, queue: PushQueue(client: harness.db.client, logger: logger), tick: .seconds(60),
                window: .seconds(6 * 3_600), startGate: StartGate(), logger: logger)
            // Postgres hands over only the devices whose day began within the window: none in New York at 18:30.
            let due = try await scheduler.due(now: now)
            #expect(Set(due.map(\.0)) == [morning.token] && !due.contains { $0.0 == elsewhere.token }, "\(due.map(\.2))")
            #expect(try await scheduler.runOnce(now: now) == 2)
            #expect(try await scheduler.runOnce(now: now.addingTimeInterval(600)) == 0, "once a day")
            #expect(try await eventually { harness.push.requests.count == 2 })
            #expect(Set(Self.sentTokens(harness)) == [morning.token])
            let bodies = harness.push.requests.compactMap { request -> [String: Any]? in
                (try? JSONSerialization.jsonObject(with: Data(request.body.utf8))) as? [String: Any]
            }
            let alerts = bodies.compactMap { ($0["aps"] as? [String: Any])?["alert"] as? [String: Any] }
            #expect(alerts.allSatisfy { $0["title"] as? String == "Look! Weather around you!" })
            #expect(Set(alerts.compactMap { $0["subtitle"] as? String }) == ["Berlin", "Suva"])
            // Berlin's day (Nov 24 local) holds hours 1...24 of the forecast (from 22:00 UTC the day before): 1.5 °C to 13 °C.
            // Suva (UTC+12) is already on Nov 24 too; its hours are all 18 °C.
            #expect(
                Set(alerts.compactMap { $0["body"] as? String }) == ["Max 13 °C, min 2 °C, Partly cloudy", "Max 18 °C, min 18 °C, Partly cloudy"])
            #expect(!Self.sentTokens(harness).contains(elsewhere.token) && !Self.sentTokens(harness).contains(quiet.token))
        }
    }

    @Test(
        "U8, B2: a reminder goes under the horoscope app's topic to its devices only, in their zone and language; a token refused for the topic is kept"
    )
    func reminderPerApp() async throws {
        let apns = StrictAPNs()
        try await WarningTestHarness.run(push: apns.handler) { harness in
            let user = UUID().uuidString
            let weatherPhone = try await harness.device(currentCityId: nil, userId: user)
            let horoscopePhone = try await harness.device(
                currentCityId: nil, userId: user, timeZone: "Asia/Bangkok", app: "horoscope", language: "th")
            let englishTablet = try await harness.device(currentCityId: nil, userId: user, timeZone: "Europe/London", app: "horoscope")
            // Registered as the horoscope app's, but APNs issued it to the weather app: a configuration mistake.
            let misfiled = try await harness.device(currentCityId: nil, userId: user, app: "horoscope")
            apns.issue(weatherPhone.token, to: "com.example.weather")
            apns.issue(horoscopePhone.token, to: "com.example.horoscope")
            apns.issue(englishTablet.token, to: "com.example.horoscope")
            apns.issue(misfiled.token, to: "com.example.weather")
            let partner = UUID()
            try await harness.publish(
                EventEnvelope(
                    type: EventTypes.appointmentReminderDue, producer: "appointment-booker", key: partner.uuidString.lowercased(),
                    payload: AppointmentReminderDue(
                        bookingId: UUID(), partnerId: partner, partnerName: "Madame Test", userId: user.lowercased(),
                        startsAt: Date(timeIntervalSince1970: 1_830_000_000))),
                to: harness.appointmentsTopic)
            #expect(try await eventually { harness.push.requests.count == 3 })
            try await Task.sleep(for: .milliseconds(300))
            let requests = harness.push.requests
            #expect(!Self.sentTokens(harness).contains(weatherPhone.token), "never to the weather app's device")
            #expect(requests.allSatisfy { $0.headers["apns-topic"] == "com.example.horoscope" })
            let thai = try #require(requests.first { $0.path.hasSuffix(horoscopePhone.token) })
            #expect(thai.body.contains("20:20") && thai.body.contains("ธันวาคม"), "Bangkok time, in Thai: \(thai.body)")
            let english = try #require(requests.first { $0.path.hasSuffix(englishTablet.token) })
            #expect(english.body.contains("Tuesday 28 December, 13:20"), "London time, in English: \(english.body)")
            #expect(!english.body.contains("2027-12-28T13:20:00Z\"}\"") && !english.body.contains("Starts 2027"))
            #expect(
                try await eventually {
                    try await harness.count("SELECT count(*)::int FROM push_deliveries WHERE status = 'sent' AND app = 'horoscope'") == 2
                })
            #expect(
                try await eventually {
                    try await harness.count(
                        "SELECT count(*)::int FROM push_deliveries WHERE status = 'failed' AND last_error = 'DeviceTokenNotForTopic'") == 1
                })
            #expect(try await harness.count("SELECT count(*)::int FROM devices WHERE token = '\(misfiled.token)'") == 1, "the token is kept")
        }
    }

    @Test("B2, A5: appointment-booker's reminder reaches each device of its user once, a duplicate event included; other booking events are skipped")
    func appointmentReminderPushed() async throws {
        try await WarningTestHarness.run { harness in
            let user = UUID()
            // The device registered with auth's upper-case subject, the reminder names the user in lower case.
            let phone = try await harness.device(currentCityId: nil, userId: user.uuidString, app: "horoscope")
            let tablet = try await harness.device(currentCityId: nil, userId: user.uuidString, app: "horoscope")
            let stranger = try await harness.device(currentCityId: nil)
            let partner = UUID()
            let reminder = EventEnvelope(
                type: EventTypes.appointmentReminderDue, producer: "appointment-booker", key: partner.uuidString.lowercased(),
                payload: AppointmentReminderDue(
                    bookingId: UUID(), partnerId: partner, partnerName: "Madame Test", userId: user.uuidString.lowercased(),
                    startsAt: Date(timeIntervalSince1970: 1_830_000_000)))
            try await harness.publish(reminder, to: harness.appointmentsTopic)
            try await harness.publish(reminder, to: harness.appointmentsTopic)
            try await harness.publish(
                EventEnvelope(
                    type: EventTypes.appointmentBooked, producer: "appointment-booker", key: partner.uuidString.lowercased(),
                    payload: AppointmentChanged(
                        bookingId: UUID(), partnerId: partner, userId: "u", startsAt: Date(), endsAt: Date(), status: .booked, changedBy: .user)),
                to: harness.appointmentsTopic)
            #expect(try await harness.waitProcessed(atLeast: 2), "the reminder once, and the booking")
            #expect(try await eventually { harness.push.requests.count == 2 })
            try await Task.sleep(for: .milliseconds(300))
            #expect(Set(Self.sentTokens(harness)) == [phone.token, tablet.token] && !Self.sentTokens(harness).contains(stranger.token))
            #expect(harness.push.requests.allSatisfy { $0.body.contains("Madame Test") && $0.body.contains("appointment-reminder") })
            #expect(try await harness.count("SELECT count(*)::int FROM push_deliveries WHERE kind = 'appointment-reminder'") == 2)
        }
    }
}

/// A countdown the fake provider's handler shares across requests.
final class Countdown: Sendable {
    private let remaining: Mutex<Int>
    init(_ value: Int) { remaining = Mutex(value) }
    func takeOne() -> Bool {
        remaining.withLock { value in
            guard value > 0 else { return false }
            value -= 1
            return true
        }
    }
}
