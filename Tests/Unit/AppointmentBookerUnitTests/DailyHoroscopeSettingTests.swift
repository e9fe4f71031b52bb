import Foundation
import Testing

@testable import AppointmentBooker

/// The daily horoscope notification's setting (B5): the rule on its own and `SetDailyHoroscope` over memory settings.
@Suite("appointment-booker: daily horoscope setting")
struct DailyHoroscopeSettingTests {
    static let off = DailyHoroscopeSetting(enabled: false)

    static func refusal(_ work: () async throws -> Void) async -> DailyHoroscopeRefusal? {
        do {
            try await work()
            return nil
        } catch {
            return error as? DailyHoroscopeRefusal
        }
    }

    @Test("B5: turning it on needs a sign, a time and a zone, and names every one missing")
    func onNeedsSignTimeAndZone() {
        #expect(throws: DailyHoroscopeRefusal(problems: [.sign: .neededToTurnOn, .localTime: .neededToTurnOn, .timeZone: .neededToTurnOn])) {
            try Self.off.changed(by: DailyHoroscopeChange(enabled: true), zoneKnown: true)
        }
        #expect(throws: DailyHoroscopeRefusal(problems: [.timeZone: .neededToTurnOn])) {
            try Self.off.changed(by: DailyHoroscopeChange(enabled: true, sign: "leo", localTime: "07:30"), zoneKnown: true)
        }
    }

    @Test("B5: fields left out keep what they were; turning it off keeps them for next time")
    func fieldsLeftOutKept() throws {
        let on = try Self.off.changed(
            by: DailyHoroscopeChange(enabled: true, sign: "leo", localTime: "07:30", timeZone: "Asia/Bangkok"), zoneKnown: true)
        #expect(on == DailyHoroscopeSetting(enabled: true, sign: "leo", localTime: "07:30", timeZone: "Asia/Bangkok"))
        let off = try on.changed(by: DailyHoroscopeChange(enabled: false), zoneKnown: true)
        #expect(off == DailyHoroscopeSetting(enabled: false, sign: "leo", localTime: "07:30", timeZone: "Asia/Bangkok"))
        // On again with only a new time: the kept sign and zone count.
        let again = try off.changed(by: DailyHoroscopeChange(enabled: true, localTime: "21:00"), zoneKnown: true)
        #expect(again == DailyHoroscopeSetting(enabled: true, sign: "leo", localTime: "21:00", timeZone: "Asia/Bangkok"))
    }

    @Test("B5: a time must be HH:MM within the day and a zone one the service knows, even to turn it off")
    func timeAndZoneChecked() {
        for time in ["24:00", "7:3", "noon", "25:00"] {
            #expect(throws: DailyHoroscopeRefusal(problems: [.localTime: .malformedLocalTime]), "\(time)") {
                try Self.off.changed(by: DailyHoroscopeChange(enabled: false, localTime: time), zoneKnown: true)
            }
        }
        #expect(throws: DailyHoroscopeRefusal(problems: [.timeZone: .unknownTimeZone, .sign: .neededToTurnOn])) {
            try Self.off.changed(by: DailyHoroscopeChange(enabled: true, localTime: "07:00", timeZone: "Mars/Olympus"), zoneKnown: false)
        }
    }

    @Test("B5: the use case stores the whole setting, and stores nothing when refused")
    func setStoresWhole() async throws {
        let settings = MemoryDailyHoroscopes()
        let set = SetDailyHoroscope(settings: settings)
        _ = try await set(DailyHoroscopeChange(enabled: true, sign: "aries", localTime: "06:00", timeZone: "Europe/Paris"), of: "user-1")
        let changed = try await set(DailyHoroscopeChange(enabled: false, sign: "leo"), of: "user-1")
        #expect(changed == DailyHoroscopeSetting(enabled: false, sign: "leo", localTime: "06:00", timeZone: "Europe/Paris"))
        let refused = await Self.refusal { _ = try await set(DailyHoroscopeChange(enabled: true, localTime: "99:99"), of: "user-1") }
        #expect(refused == DailyHoroscopeRefusal(problems: [.localTime: .malformedLocalTime]))
        #expect(try await settings.setting(of: "user-1") == changed)
        #expect(try await settings.setting(of: "user-2") == Self.off)
    }

    @Test("B5: a zone Foundation knows but the database does not, or longer than 64, is refused")
    func zoneKnownToDatabase() async throws {
        let set = SetDailyHoroscope(settings: MemoryDailyHoroscopes(zones: ["UTC"]))
        let unknownToDatabase = await Self.refusal { _ = try await set(DailyHoroscopeChange(enabled: false, timeZone: "Asia/Tokyo"), of: "u") }
        #expect(unknownToDatabase == DailyHoroscopeRefusal(problems: [.timeZone: .unknownTimeZone]))
        let unknown = await Self.refusal {
            _ = try await set(DailyHoroscopeChange(enabled: false, timeZone: String(repeating: "A", count: 65)), of: "u")
        }
        #expect(unknown == DailyHoroscopeRefusal(problems: [.timeZone: .unknownTimeZone]))
        #expect(try await set(DailyHoroscopeChange(enabled: false, timeZone: "UTC"), of: "u").timeZone == "UTC")
    }
}
