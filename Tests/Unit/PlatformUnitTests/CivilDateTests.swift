import Foundation
import PlatformCore
import Testing

/// The one civil-date arithmetic: the day an instant falls on in a zone, without Calendar and without a trap on
/// an instant from outside.
@Suite("Civil dates of instants")
struct CivilDateTests {
    private let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt
    private let auckland = TimeZone(identifier: "Pacific/Auckland") ?? .gmt

    @Test("the day in a zone follows the zone's offset at that instant, summer time included")
    func dayInZone() {
        // 2026-11-27T23:30Z: Berlin (UTC+1 in winter) is already on the 28th, UTC is not.
        let lateEvening = Date(timeIntervalSince1970: 1_795_822_200)
        #expect(CivilDate(lateEvening)?.description == "2026-11-27")
        #expect(CivilDate(lateEvening, in: berlin)?.description == "2026-11-28")
        // 2026-07-01T22:30Z: Berlin is at UTC+2 in summer, so 00:30 of the 2nd; at UTC+1 it would still be the 1st.
        let summerNight = Date(timeIntervalSince1970: 1_782_945_000)
        #expect(CivilDate(summerNight, in: berlin)?.description == "2026-07-02")
        // Auckland is ahead of UTC by 13 hours in its summer.
        #expect(CivilDate(Date(timeIntervalSince1970: 1_795_822_200), in: auckland)?.description == "2026-11-28")
        #expect(CivilDate(Date(timeIntervalSince1970: -1))?.description == nil)
    }

    @Test("an instant outside the years a day can name is nil, or held to the nearest such day when clamped")
    func outsideTheYears() {
        let last = CivilDate(year: 2200, month: 12, day: 31)
        let first = CivilDate(year: 1970, month: 1, day: 1)
        for seconds in [-1e300, -86_401, 7_289_654_400, 1e300] {
            #expect(CivilDate(Date(timeIntervalSince1970: seconds)) == nil)
        }
        #expect(CivilDate(Date(timeIntervalSince1970: 7_289_654_399)) == last)
        #expect(CivilDate(clamping: Date(timeIntervalSince1970: 1e300)) == last)
        #expect(CivilDate(clamping: Date(timeIntervalSince1970: -1e300)) == first)
        #expect(CivilDate(clamping: Date(timeIntervalSince1970: .nan)) == first)
        #expect(CivilDate(clamping: Date(timeIntervalSince1970: -.infinity), in: berlin) == first)
        #expect(CivilDate(Date(timeIntervalSince1970: .infinity)) == nil)
    }
}
