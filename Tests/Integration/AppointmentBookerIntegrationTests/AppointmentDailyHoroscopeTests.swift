import Crypto
import Foundation
import Logging
import PlatformCore
import PlatformHTTP
import PlatformPostgres
import PostgresNIO
import ServiceTestSupport
import TestSupport
import Testing

@testable import AppointmentBooker

/// B5: the horoscope app's daily notification, set per user and queued once per local day at the user's time.
@Suite("Appointments: daily horoscope notification")
struct AppointmentDailyHoroscopeTests {
    @Test("B5: the setting is checked (sign, time, IANA zone needed to turn it on) and read back")
    func setting() async throws {
        try await LifecycleAuth.run { auth, users in
            try await BookingTestHarness.run(extraEnvironment: ["APPOINTMENT_USERS_TOPIC": users], tokens: auth.tokens) { booking in
                let token = try await auth.install("horoscope").access
                var (status, body) = try await booking.request(.get, "/v1/me/daily-horoscope", bearer: token)
                #expect(status == .ok && body["enabled"].bool == false, "off until set: \(body.raw ?? "")")
                (status, body) = try await booking.request(.put, "/v1/me/daily-horoscope", json: ["enabled": true], bearer: token)
                #expect(
                    status == .unprocessableContent && body["error"]["details"]["sign"].string != nil
                        && body["error"]["details"]["timeZone"].string != nil, "\(body.raw ?? "")")
                (status, body) = try await booking.request(
                    .put, "/v1/me/daily-horoscope", json: ["enabled": true, "sign": "leo", "localTime": "07:00", "timeZone": "Mars/Olympus"],
                    bearer: token)
                #expect(status == .unprocessableContent && body["error"]["details"]["timeZone"].string != nil, "\(body.raw ?? "")")
                (status, body) = try await booking.request(
                    .put, "/v1/me/daily-horoscope", json: ["enabled": true, "sign": "leo", "localTime": "24:00", "timeZone": "Asia/Bangkok"],
                    bearer: token)
                #expect(status.code == 400 || status.code == 422, "\(body.raw ?? "")")
                (status, body) = try await booking.request(
                    .put, "/v1/me/daily-horoscope", json: ["enabled": true, "sign": "leo", "localTime": "07:00", "timeZone": "Asia/Bangkok"],
                    bearer: token)
                #expect(status == .ok && body["sign"].string == "leo" && body["localTime"].string == "07:00", "\(body.raw ?? "")")
                (status, body) = try await booking.request(.put, "/v1/me/daily-horoscope", json: ["enabled": false], bearer: token)
                #expect(status == .ok && body["enabled"].bool == false && body["sign"].string == "leo", "off keeps the rest: \(body.raw ?? "")")
            }
        }
    }

    @Test("B5: a due notification is queued at the user's local time, once per local day, across restarts; off sends nothing")
    func oncePerLocalDay() async throws {
        try await LifecycleAuth.run { auth, users in
            try await BookingTestHarness.run(
                extraEnvironment: ["DAILY_HOROSCOPE_TICK_MS": "3600000", "APPOINTMENT_USERS_TOPIC": users], tokens: auth.tokens
            ) { booking in
                let install = try await auth.install("horoscope")
                let (user, token) = (install.id, install.access)
                let (status, body) = try await booking.request(
                    .put, "/v1/me/daily-horoscope", json: ["enabled": true, "sign": "leo", "localTime": "07:00", "timeZone": "Asia/Bangkok"],
                    bearer: token)
                #expect(status == .ok, "\(body.raw ?? "")")
                let content = try ReadingContent.bundled()
                // A scheduler as each start of the service makes one: what it sent is in the database, not in it.
                func scheduler() -> DailyHoroscopeScheduler {
                    DailyHoroscopeScheduler(
                        client: booking.db.client,
                        engine: ReadingEngine(content: content, key: SymmetricKey(data: Data(TestSecrets.readingKey.utf8))),
                        content: content, tick: .seconds(3600), topic: booking.bookingsTopic, startGate: StartGate(), logger: booking.db.logger)
                }
                func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text) ?? .distantPast }
                #expect(try await scheduler().runOnce(now: at("2030-01-10T06:59:00+07:00")) == 0, "not before 07:00 in Bangkok")
                #expect(try await scheduler().runOnce(now: at("2030-01-10T07:00:00+07:00")) == 1)
                #expect(try await scheduler().runOnce(now: at("2030-01-10T23:59:00+07:00")) == 0, "once that day, after a restart too")
                #expect(try await scheduler().runOnce(now: at("2030-01-11T07:01:00+07:00")) == 1, "and again the next local day")
                let events = try await booking.db.client.query(
                    "SELECT convert_from(payload, 'UTF8') FROM outbox WHERE event_type = 'horoscope.daily-due' ORDER BY id", logger: booking.db.logger
                ).decode(String.self).collectAll()
                #expect(events.count == 2)  // read before the zone changes below
                let first = try #require(events.first)
                #expect(first.contains("\"localDate\":\"2030-01-10\"") && first.contains("\"sign\":\"leo\"") && first.contains(user), "\(first)")
                #expect(events.last?.contains("\"localDate\":\"2030-01-11\"") == true)

                // Moving west to a zone still on the 10th sends nothing: one notice per date, not per change of zone.
                _ = try await booking.request(
                    .put, "/v1/me/daily-horoscope", json: ["enabled": true, "sign": "leo", "localTime": "07:00", "timeZone": "America/Los_Angeles"],
                    bearer: token)
                #expect(try await scheduler().runOnce(now: at("2030-01-11T07:30:00-08:00")) == 0, "the 11th was sent already")
                _ = try await booking.request(
                    .put, "/v1/me/daily-horoscope", json: ["enabled": true, "sign": "leo", "localTime": "07:00", "timeZone": "Asia/Bangkok"],
                    bearer: token)
                #expect(try await scheduler().runOnce(now: at("2030-01-12T07:01:00+07:00")) == 1, "the 12th in Bangkok")
                _ = try await booking.request(
                    .put, "/v1/me/daily-horoscope", json: ["enabled": true, "sign": "leo", "localTime": "07:00", "timeZone": "America/Los_Angeles"],
                    bearer: token)
                #expect(try await scheduler().runOnce(now: at("2030-01-11T16:02:00-08:00")) == 0, "back to the 11th: nothing again")

                _ = try await booking.request(.put, "/v1/me/daily-horoscope", json: ["enabled": false], bearer: token)
                #expect(try await scheduler().runOnce(now: at("2030-01-13T08:00:00+07:00")) == 0, "off sends nothing")
            }
        }
    }
}
