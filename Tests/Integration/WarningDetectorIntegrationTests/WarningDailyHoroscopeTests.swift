import Foundation
import PlatformEvents
import ServiceTestSupport
import TestSupport
import Testing

/// B5 in warning-detector: appointment-booker's daily horoscope reaches the user's horoscope-app devices, in each
/// device's language, once per device and local day, and never a weather-app device.
@Suite("Warnings: daily horoscope push")
struct WarningDailyHoroscopeTests {
    @Test("B5, A7: the day's horoscope goes to the user's horoscope devices only, in their language, once a day")
    func dailyHoroscopePush() async throws {
        let apns = StrictAPNs()
        try await WarningTestHarness.run(push: apns.handler) { harness in
            let user = UUID().uuidString.lowercased()
            let weatherPhone = try await harness.device(currentCityId: nil, userId: user)
            let thaiPhone = try await harness.device(currentCityId: nil, userId: user, timeZone: "Asia/Bangkok", app: "horoscope", language: "th")
            let tablet = try await harness.device(currentCityId: nil, userId: user, app: "horoscope", language: "en")
            apns.issue(weatherPhone.token, to: "com.example.weather")
            apns.issue(thaiPhone.token, to: "com.example.horoscope")
            apns.issue(tablet.token, to: "com.example.horoscope")
            func due() -> EventEnvelope<HoroscopeDailyDue> {
                EventEnvelope(
                    type: EventTypes.horoscopeDailyDue, producer: "appointment-booker", key: user,
                    payload: HoroscopeDailyDue(
                        userId: user, sign: "leo", localDate: "2030-01-10", titleEn: "Leo", titleTh: "สิงห์",
                        textEn: "Bold and warm. A good day to ask.", textTh: "กล้าหาญและอบอุ่น วันดีที่จะขอ"))
            }
            try await harness.publish(due(), to: harness.appointmentsTopic)
            try await harness.publish(due(), to: harness.appointmentsTopic)
            #expect(try await eventually { harness.push.requests.count == 2 })
            try await Task.sleep(for: .milliseconds(300))
            let requests = harness.push.requests
            #expect(requests.count == 2, "one per horoscope device, the repeated day's event included")
            #expect(requests.allSatisfy { $0.headers["apns-topic"] == "com.example.horoscope" })
            #expect(!requests.contains { $0.path.hasSuffix(weatherPhone.token) }, "never to the weather app's device")
            let thai = try #require(requests.first { $0.path.hasSuffix(thaiPhone.token) })
            #expect(thai.body.contains("สิงห์") && thai.body.contains("ดวงวันนี้"), "\(thai.body)")
            let english = try #require(requests.first { $0.path.hasSuffix(tablet.token) })
            #expect(english.body.contains("Your horoscope today") && english.body.contains("A good day to ask"), "\(english.body)")
            #expect(try await harness.count("SELECT count(*)::int FROM push_deliveries WHERE kind = 'daily-horoscope'") == 2)
        }
    }
}
