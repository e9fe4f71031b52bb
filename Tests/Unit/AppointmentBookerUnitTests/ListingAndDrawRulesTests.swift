import Foundation
import PlatformCore
import Testing

@testable import AppointmentBooker

/// Rules the API once decided itself (B3, B4, B6): which slots a listing offers, the three cards of a tarot
/// reading, and an ad's window.
@Suite("appointment-booker: slot listing, tarot draw and ad window rules")
struct ListingAndDrawRulesTests {
    static let hour = 3_600

    @Test("B3: a listing offers the partner's slots after the given instant and within the horizon, less the taken")
    func offeredSlots() throws {
        let partner = try BookSlotTests.partner()
        let choice = SlotChoice(slots: SlotCalculator(slotMinutes: 60), horizonDays: 7)
        let monday = BookingTime.seconds(BookSlotTests.monday)  // 09:00 UTC, the first slot of the day
        let day = try #require(CivilDate(BookSlotTests.monday))
        let now = monday - 30 * 60
        let all = choice.offered(from: day, days: 1, of: partner, after: now, now: now)
        #expect(all.count == 8 && all.first?.start == monday && all.last?.end == monday + 8 * Self.hour)
        // A slot beginning within the answer's life is not offered.
        #expect(choice.offered(from: day, days: 1, of: partner, after: monday, now: now).first?.start == monday + Self.hour)
        // Next Monday is the horizon's last day: its slots up to seven days from now only.
        let weekLater = choice.offered(from: day.adding(days: 7), days: 1, of: partner, after: now, now: now)
        #expect(weekLater.isEmpty, "09:00 a week later is past seven days from 08:30")
        #expect(choice.offered(from: day.adding(days: 7), days: 1, of: partner, after: now, now: now + Self.hour).count == 1)
        let taken = [SlotCalculator.Interval(start: monday + Self.hour + 1_800, end: monday + 2 * Self.hour + 1_800)]
        let free = SlotChoice.free(all, taken: taken)
        #expect(free.count == 6 && !free.contains { $0.start == monday + Self.hour || $0.start == monday + 2 * Self.hour })
    }

    @Test("B4: a tarot reading takes exactly three different cards of the deck")
    func tarotDraw() throws {
        let names = Localized(en: "", th: "")
        let deck = Dictionary(
            uniqueKeysWithValues: ["fool", "magician", "priestess"].map {
                ($0, ReadingContent.Card(id: $0, arcana: .major, name: names, upright: names, reversed: names))
            })
        #expect(try TarotDraw(ids: ["fool", "magician", "priestess"], deck: { deck[$0] }).cards.map(\.id) == ["fool", "magician", "priestess"])
        #expect(throws: TarotDraw.Refusal.notThree) { try TarotDraw(ids: ["fool", "magician"], deck: { deck[$0] }) }
        #expect(throws: TarotDraw.Refusal.notThree) { try TarotDraw(ids: ["fool", "magician", "priestess", "fool"], deck: { deck[$0] }) }
        #expect(throws: TarotDraw.Refusal.unknownCard(index: 1, id: "joker")) {
            try TarotDraw(ids: ["fool", "joker", "priestess"], deck: { deck[$0] })
        }
        #expect(throws: TarotDraw.Refusal.notDistinct) { try TarotDraw(ids: ["fool", "fool", "priestess"], deck: { deck[$0] }) }
    }

    @Test("B6: an ad ends after it starts, runs a year at most, within the years bookings know")
    func adWindow() {
        let start = Date(timeIntervalSince1970: 1_894_006_800)
        #expect(AdWindow.problems(startsAt: start, endsAt: start.addingTimeInterval(366 * 86_400)).isEmpty)
        #expect(AdWindow.problems(startsAt: start, endsAt: start.addingTimeInterval(366 * 86_400 + 1)) == ["endsAt": "an ad runs a year at most"])
        #expect(AdWindow.problems(startsAt: start, endsAt: start) == ["endsAt": "must be after startsAt"])
        let before1970 = Date(timeIntervalSince1970: -86_400)
        #expect(AdWindow.problems(startsAt: before1970, endsAt: start)["startsAt"] == "must be in the years 1970...2200")
    }
}
