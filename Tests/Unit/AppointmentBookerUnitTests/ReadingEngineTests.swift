import Crypto
import Foundation
import PlatformCore
import Testing

@testable import AppointmentBooker

/// The readings' arithmetic and content on their own (B4).
@Suite("appointment-booker: reading engine and content")
struct ReadingEngineTests {
    static let content = Result { try ReadingContent.bundled() }

    func engine(key: String = "test-reading-key") throws -> ReadingEngine {
        ReadingEngine(content: try Self.content.get(), key: SymmetricKey(data: Data(key.utf8)))
    }

    @Test("B4: every sign, card (upright and reversed), stick, digit and element pair has its own text in Thai and English")
    func contentComplete() throws {
        let content = try Self.content.get()
        #expect(content.signs.count == 12 && content.cards.count == 78 && content.sticks.count == 28)
        #expect(Set(content.cards.map(\.upright.en)).count == 78 && Set(content.cards.map(\.reversed.th)).count == 78, "each card its own words")
        #expect(Set(content.sticks.map(\.verse.th)).count == 28 && Set(content.signs.map(\.trait.en)).count == 12)
        for card in content.cards {
            for text in [card.name, card.upright, card.reversed] { #expect(text.isComplete && text.en != text.th, "\(card.id)") }
        }
        // Every card read in a spread gives words in both languages.
        let engine = try engine()
        let day = try #require(CivilDate(parsing: "2027-01-04"))
        for (index, card) in content.cards.enumerated() {
            let others = [content.cards[(index + 1) % 78], content.cards[(index + 2) % 78]]
            let reading = engine.tarot(cards: [card] + others, user: "u", on: day)
            #expect(
                reading.parts.count == 3 && reading.parts.allSatisfy { $0.text.isComplete && $0.text.en.contains(card.name.en) || $0.text.en != "" })
            #expect(reading.parts[0].text.en.contains(card.name.en) && reading.parts[0].text.th.contains(card.name.th))
        }
    }

    @Test("B4: the same inputs on the same day read the same; another day or another key reads differently")
    func deterministic() throws {
        let (first, second) = (try engine(), try engine())
        let day = try #require(CivilDate(parsing: "2027-01-04"))
        let content = try Self.content.get()
        var differentNextDay = 0
        for sign in content.signs {
            #expect(first.horoscope(sign: sign, on: day) == second.horoscope(sign: sign, on: day))
            // The words and scores, not the date field, must change with the day.
            let (today, tomorrow) = (first.horoscope(sign: sign, on: day), first.horoscope(sign: sign, on: day.adding(days: 1)))
            if today.scores != tomorrow.scores { differentNextDay += 1 }
        }
        #expect(differentNextDay == 12)
        let texts = Set((0..<30).map { first.horoscope(sign: content.signs[0], on: day.adding(days: $0)).text.en })
        #expect(texts.count > 3, "the texts vary over a month")
        #expect(first.fortuneStick(user: "u1", on: day) == second.fortuneStick(user: "u1", on: day))
        let sticks = Set((0..<60).map { first.fortuneStick(user: "u1", on: day.adding(days: $0)).stickNumber ?? 0 })
        #expect(sticks.count > 10 && sticks.allSatisfy { (1...28).contains($0) }, "different days draw different sticks")
        let other = try engine(key: "another-key")
        #expect(content.signs.contains { other.horoscope(sign: $0, on: day) != first.horoscope(sign: $0, on: day) })
    }

    @Test("B4: the seed's phone-number rule: exactly ten digits and no letters; spaces, dashes, dots, + and brackets are ignored; Thai digits count")
    func phoneNumberRule() {
        #expect(PhoneNumberRule.digits(of: "0812345678") == [0, 8, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(PhoneNumberRule.digits(of: "081-234-5678") != nil && PhoneNumberRule.digits(of: "081 234 5678") != nil)
        #expect(PhoneNumberRule.digits(of: "๐๘๑๒๓๔๕๖๗๘") == [0, 8, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(PhoneNumberRule.digits(of: "+66 (81) 234.5678") == nil, "eleven digits")
        #expect(PhoneNumberRule.digits(of: "(081) 234.5678") != nil)
        for bad in ["081234567", "08123456789", "081234567a", "O812345678", "", "phone", "081234567ก", "081#2345678", "0812345678\u{0}"] {
            #expect(PhoneNumberRule.digits(of: bad) == nil, "\(bad)")
        }
    }

    @Test("B4: a phone number reads its nine neighbouring pairs and a total; scores stay in 0-100")
    func phoneNumberReading() throws {
        let engine = try engine()
        let day = try #require(CivilDate(parsing: "2027-01-04"))
        for digits in [[0, 8, 1, 2, 3, 4, 5, 6, 7, 8], [9, 9, 9, 9, 9, 9, 9, 9, 9, 9], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]] {
            let reading = engine.phoneNumber(try #require(PhoneDigits(digits)), on: day)
            #expect(reading.parts.count == 9 && reading.parts[0].label.en == "\(digits[0])\(digits[1])")
            let scores = [reading.scores.love, reading.scores.work, reading.scores.money, reading.scores.health]
            #expect(scores.allSatisfy { (0...100).contains($0) })
            #expect(reading.text.en.contains("Total \(digits.reduce(0, +))"))
        }
        let number = try #require(PhoneDigits([0, 8, 1, 2, 3, 4, 5, 6, 7, 8]))
        let (monday, later) = (engine.phoneNumber(number, on: day), engine.phoneNumber(number, on: day.adding(days: 9)))
        #expect(monday.parts == later.parts, "a pair means the same any day")
        #expect((0..<10).contains { engine.phoneNumber(number, on: day.adding(days: $0)).scores != monday.scores }, "a new day, a new reading")
        #expect(PhoneDigits([1, 2, 3]) == nil && PhoneDigits([10, 0, 0, 0, 0, 0, 0, 0, 0, 0]) == nil)
    }

    @Test("B4: Accept-Language picks Thai only when asked first")
    func language() {
        #expect(Language(acceptLanguage: "th-TH,th;q=0.9,en;q=0.8") == .thai && Language(acceptLanguage: "th") == .thai)
        #expect(Language(acceptLanguage: "en-US,th;q=0.5") == .english && Language(acceptLanguage: nil) == .english)
    }

    @Test("B4: a bad reading gets the ceremony of its weakest life area (ties in the order love, work, money, health); others none")
    func ceremony() throws {
        let content = try Self.content.get()
        let scores = Reading.Scores(love: 30, work: 12, money: 12, health: 50)
        #expect(LifeArea.weakest(in: scores) == .work)
        #expect(LifeArea.weakest(in: .init(love: 5, work: 5, money: 5, health: 5)) == .love)
        #expect(LifeArea.weakest(in: .init(love: 40, work: 41, money: 42, health: 3)) == .health)
        var reading = Reading(
            kind: .horoscope, date: "2027-01-01", title: .init(en: "t", th: "t"), text: .init(en: "t", th: "t"), verdict: .bad,
            scores: scores, parts: [])
        let chosen = try #require(content.ceremony(after: reading))
        #expect(chosen.area == .work && chosen.ceremony == content.ceremonies["work"])
        reading.verdict = .neutral
        #expect(content.ceremony(after: reading) == nil)
        // Each area's ceremony is its own, complete in both languages, at a place the service names.
        #expect(Set(content.ceremonies.keys) == Set(LifeArea.allCases.map(\.rawValue)))
        #expect(Set(content.ceremonies.values.map(\.title.en)).count == LifeArea.allCases.count)
        let complete = content.ceremonies.values.allSatisfy { $0.isComplete }
        #expect(complete)
    }
}
