import Foundation
import PlatformCore
import Testing

@testable import AppointmentBooker

/// The slot arithmetic on its own (B3): daylight-saving days in two zones with DST and one without.
@Suite("appointment-booker: slots and time zones")
struct SlotCalculatorTests {
    let hourly = SlotCalculator(slotMinutes: 60)

    func slots(_ zone: String, _ day: String, _ start: String, _ end: String, shownIn shown: String? = nil) throws -> [String] {
        let clock = try #require(ZonedClock(identifier: zone))
        let date = try #require(CivilDate(parsing: day))
        let window = Availability.WeeklyWindow(
            weekday: date.weekday, start: try #require(LocalTime(parsing: start)), end: try #require(LocalTime(parsing: end)))
        let display = try #require(ZonedClock(identifier: shown ?? zone))
        return hourly.slots(on: date, availability: Availability(weekly: [window], exceptions: []), clock: clock).map { display.format($0.start) }
    }

    @Test("B3: Europe/Paris: the skipped hour gives no slot, the repeated hour gives two")
    func paris() throws {
        #expect(try slots("Europe/Paris", "2027-03-28", "01:00", "04:00") == ["2027-03-28T01:00:00+01:00", "2027-03-28T03:00:00+02:00"])
        #expect(try slots("Europe/Paris", "2027-03-28", "02:00", "03:00") == [], "a window wholly in the skipped hour")
        #expect(
            try slots("Europe/Paris", "2027-10-31", "01:00", "04:00")
                == ["2027-10-31T01:00:00+02:00", "2027-10-31T02:00:00+02:00", "2027-10-31T02:00:00+01:00", "2027-10-31T03:00:00+01:00"])
        #expect(try slots("Europe/Paris", "2027-06-01", "09:00", "12:00").count == 3)
    }

    @Test("B3: America/New_York: the same on its own transition days")
    func newYork() throws {
        #expect(try slots("America/New_York", "2027-03-14", "00:00", "05:00").count == 4)
        #expect(try slots("America/New_York", "2027-03-14", "01:00", "04:00") == ["2027-03-14T01:00:00-05:00", "2027-03-14T03:00:00-04:00"])
        #expect(
            try slots("America/New_York", "2027-11-07", "00:00", "03:00")
                == ["2027-11-07T00:00:00-04:00", "2027-11-07T01:00:00-04:00", "2027-11-07T01:00:00-05:00", "2027-11-07T02:00:00-05:00"])
    }

    @Test("B3: Asia/Bangkok has no DST: three hours are three slots every day; shown in another zone with its offset")
    func bangkok() throws {
        for day in ["2027-03-14", "2027-03-28", "2027-10-31", "2027-11-07"] {
            #expect(try slots("Asia/Bangkok", day, "01:00", "04:00").count == 3)
        }
        #expect(try slots("Asia/Bangkok", "2027-01-04", "09:00", "10:00", shownIn: "Europe/Paris") == ["2027-01-04T03:00:00+01:00"])
        #expect(try slots("Asia/Bangkok", "2027-01-04", "23:00", "24:00") == ["2027-01-04T23:00:00+07:00"])
    }

    @Test("B3: exceptions: a day off removes the weekday's windows, a partial day off cuts them, extra hours add slots")
    func exceptions() throws {
        let clock = try #require(ZonedClock(identifier: "Asia/Bangkok"))
        let day = try #require(CivilDate(parsing: "2027-01-04"))
        let nine = try #require(LocalTime(parsing: "09:00")), noon = try #require(LocalTime(parsing: "12:00"))
        let weekly = [Availability.WeeklyWindow(weekday: day.weekday, start: nine, end: try #require(LocalTime(parsing: "17:00")))]
        func count(_ exceptions: [Availability.Exception]) -> Int {
            hourly.slots(on: day, availability: Availability(weekly: weekly, exceptions: exceptions), clock: clock).count
        }
        #expect(count([]) == 8)
        #expect(count([.init(date: day, kind: .off, start: nil, end: nil)]) == 0)
        #expect(count([.init(date: day, kind: .off, start: nine, end: noon)]) == 5)
        let six = try #require(LocalTime(parsing: "18:00")), eight = try #require(LocalTime(parsing: "20:00"))
        #expect(count([.init(date: day, kind: .extra, start: six, end: eight)]) == 10)
        #expect(count([.init(date: day.adding(days: 1), kind: .off, start: nil, end: nil)]) == 8, "another day's exception")
    }

    @Test("B3: a booking time is a slot only at a slot's start and with the slot's length")
    func isSlot() throws {
        let clock = try #require(ZonedClock(identifier: "Europe/Paris"))
        let day = try #require(CivilDate(parsing: "2027-10-31"))
        let availability = Availability(
            weekly: [.init(weekday: day.weekday, start: try #require(LocalTime(parsing: "01:00")), end: try #require(LocalTime(parsing: "04:00")))],
            exceptions: [])
        let all = hourly.slots(on: day, availability: availability, clock: clock)
        #expect(all.allSatisfy { hourly.isSlot($0, availability: availability, clock: clock) })
        #expect(!hourly.isSlot(.init(start: all[0].start + 1800, end: all[0].end + 1800), availability: availability, clock: clock))
    }

    @Test("B3: dates and times from requests: impossible days and times are refused, never trapped on")
    func parsing() {
        #expect(CivilDate(parsing: "2027-02-29") == nil && CivilDate(parsing: "2028-02-29") != nil)
        #expect(CivilDate(parsing: "99999-01-01") == nil && CivilDate(parsing: "2027-1-01") == nil && CivilDate(parsing: "２０２７-01-01") == nil)
        #expect(LocalTime(parsing: "24:00") == .endOfDay && LocalTime(parsing: "24:01") == nil && LocalTime(parsing: "9:00") == nil)
        #expect(ZonedClock(identifier: "EST") == nil && ZonedClock(identifier: "Nowhere/Town") == nil)
        #expect(CivilDate(parsing: "2027-03-28")?.weekday == 7)
    }
}
