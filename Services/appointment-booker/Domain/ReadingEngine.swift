import Crypto
import Foundation
import PlatformCore
import PlatformEvents

/// Makes the readings (B4) from the content and a `ReadingSeed`. Pure: no clock, no storage; the caller gives
/// the local day. Inputs are checked by the API before they get here (a sign or card the content knows, ten digits).
package struct ReadingEngine: Sendable {
    package let content: ReadingContent
    package let key: SymmetricKey

    package init(content: ReadingContent, key: SymmetricKey) {
        self.content = content
        self.key = key
    }

    package func horoscope(sign: ReadingContent.Sign, on day: CivilDate) -> Reading {
        let seed = ReadingSeed(key: key, kind: .horoscope, inputs: [sign.id], date: day)
        let scores = seed.scores()
        let verdict = Verdict(average: scores.average)
        let advice = sign.advice[seed.number(4, below: sign.advice.count)]
        return Reading(
            kind: .horoscope, date: day.description, title: sign.name,
            text: sign.trait.joined(advice).joined(verdictText(verdict)), verdict: verdict, scores: scores, parts: [])
    }

    /// Three distinct cards the user picked; each lies upright or reversed as the day's seed says.
    package func tarot(cards: [ReadingContent.Card], user: String, on day: CivilDate) -> Reading {
        let seed = ReadingSeed(key: key, kind: .tarot, inputs: [user] + cards.map(\.id), date: day)
        let positions = ["past", "present", "future"]
        var parts: [Reading.Part] = []
        var reversedCount = 0
        for (index, card) in cards.prefix(3).enumerated() {
            let reversed = seed.bit(index)
            if reversed { reversedCount += 1 }
            let label = content.positions[positions[index]] ?? Localized(en: positions[index], th: positions[index])
            let orientation = reversed ? Localized(en: "reversed", th: "กลับหัว") : Localized(en: "upright", th: "หัวตั้ง")
            parts.append(
                .init(
                    label: label,
                    text: Localized(
                        en: "\(card.name.en) (\(orientation.en)): \(reversed ? card.reversed.en : card.upright.en).",
                        th: "\(card.name.th) (\(orientation.th)): \(reversed ? card.reversed.th : card.upright.th)")))
        }
        // Reversed cards weigh on the outcome: each takes from every area.
        var scores = seed.scores(from: 8)
        let weight = reversedCount * 12
        scores = .init(
            love: max(0, scores.love - weight), work: max(0, scores.work - weight), money: max(0, scores.money - weight),
            health: max(0, scores.health - weight))
        let verdict = Verdict(average: scores.average)
        return Reading(
            kind: .tarot, date: day.description, title: Localized(en: "Tarot: past, present, future", th: "ไพ่ทาโรต์: อดีต ปัจจุบัน อนาคต"),
            text: parts.map(\.text).reduce(Localized(en: "", th: "")) { $0.en.isEmpty ? $1 : $0.joined($1) }.joined(verdictText(verdict)),
            verdict: verdict, scores: scores, parts: parts)
    }

    /// The day's stick for this user: shaking again the same day gives the same one.
    package func fortuneStick(user: String, on day: CivilDate) -> Reading {
        let seed = ReadingSeed(key: key, kind: .fortuneStick, inputs: [user], date: day)
        let stick = content.sticks[seed.number(0, below: content.sticks.count)]
        let verdict = stick.verdict
        var scores = seed.scores(from: 1)
        // The stick's own verdict sets the tone; the seed spreads it over the areas.
        let shift = verdict == .good ? 30 : verdict == .bad ? -30 : 0
        scores = .init(
            love: Self.clamp(scores.love / 2 + 25 + shift), work: Self.clamp(scores.work / 2 + 25 + shift),
            money: Self.clamp(scores.money / 2 + 25 + shift), health: Self.clamp(scores.health / 2 + 25 + shift))
        return Reading(
            kind: .fortuneStick, date: day.description, title: Localized(en: "Fortune stick \(stick.number)", th: "เซียมซีใบที่ \(stick.number)"),
            text: stick.verse.joined(stick.meaning), verdict: verdict, scores: scores, parts: [], stickNumber: stick.number)
    }

    package func compatibility(_ first: ReadingContent.Sign, _ second: ReadingContent.Sign, on day: CivilDate) -> Reading {
        let ordered = [first.id, second.id].sorted()
        let seed = ReadingSeed(key: key, kind: .compatibility, inputs: ordered, date: day)
        let pair = content.elements[ReadingContent.elementKey(first.element, second.element)] ?? .init(score: 50, text: .init(en: "", th: ""))
        let score = Self.clamp(pair.score + seed.number(0, below: 11) - 5)
        return compatibilityReading(
            title: first.name.joined(second.name, separator: " + "), text: pair.text, score: score, seed: seed, day: day)
    }

    package func compatibility(names first: String, _ second: String, on day: CivilDate) -> Reading {
        let ordered = [first, second].map { $0.lowercased() }.sorted()
        let seed = ReadingSeed(key: key, kind: .compatibility, inputs: ["names"] + ordered, date: day)
        let score = 30 + seed.number(0, below: 66)
        let text = content.names[min(content.names.count - 1, score * content.names.count / 100)]
        return compatibilityReading(
            title: Localized(en: "\(first) + \(second)", th: "\(first) + \(second)"), text: text, score: score, seed: seed, day: day)
    }

    private func compatibilityReading(title: Localized, text: Localized, score: Int, seed: ReadingSeed, day: CivilDate) -> Reading {
        let spread = seed.scores(from: 1)
        let scores = Reading.Scores(
            love: score, work: Self.clamp((score + spread.work) / 2), money: Self.clamp((score + spread.money) / 2),
            health: Self.clamp((score + spread.health) / 2))
        let verdict = Verdict(average: Double(score))
        let summary = Localized(en: "Compatibility \(score)/100.", th: "ความเข้ากัน \(score)/100")
        return Reading(
            kind: .compatibility, date: day.description, title: title, text: summary.joined(text).joined(verdictText(verdict)), verdict: verdict,
            scores: scores, parts: [])
    }

    /// Each pair of neighbouring digits (nine of them) read by its digits and its sum; the total by the
    /// digital root of all ten. The number decides the pairs and the total; the day's seed moves the scores a
    /// little, so a new day gives a new reading of the same number.
    package func phoneNumber(_ number: PhoneDigits, on day: CivilDate) -> Reading {
        let digits = number.digits
        let seed = ReadingSeed(key: key, kind: .phoneNumber, inputs: [digits.map(String.init).joined()], date: day)
        let daily = { (index: Int) in seed.number(index, below: 21) - 10 }
        var parts: [Reading.Part] = []
        var good = 0, bad = 0
        for index in 0..<(digits.count - 1) {
            let (a, b) = (digits[index], digits[index + 1])
            let quality = Verdict(rawValue: content.sumQuality[a + b]) ?? .neutral
            if quality == .good { good += 1 }
            if quality == .bad { bad += 1 }
            let qualityText =
                quality == .good
                ? Localized(en: "a lucky pair", th: "คู่มงคล")
                : quality == .bad
                    ? Localized(en: "a pair to watch", th: "คู่ที่ต้องระวัง") : Localized(en: "a calm pair", th: "คู่ที่สงบ")
            parts.append(
                .init(
                    label: Localized(en: "\(a)\(b)", th: "\(a)\(b)"),
                    text: Localized(
                        en: "\(content.digits[a].en) meets \(content.digits[b].en): \(qualityText.en).",
                        th: "\(content.digits[a].th) พบกับ \(content.digits[b].th): \(qualityText.th)")))
        }
        let sum = digits.reduce(0, +)
        let root = sum == 0 ? 9 : 1 + (sum - 1) % 9
        let base = 50 + (good - bad) * 6
        let scores = Reading.Scores(
            love: Self.clamp(base + (digits[9] - 4) * 2 + daily(0)), work: Self.clamp(base + (digits[1] - 4) * 2 + daily(1)),
            money: Self.clamp(base + (digits[8] - 4) * 3 + daily(2)), health: Self.clamp(base + (digits[5] - 4) * 2 + daily(3)))
        let verdict = Verdict(average: scores.average)
        let total = Localized(en: "Total \(sum): \(content.roots[root - 1].en).", th: "ผลรวม \(sum): \(content.roots[root - 1].th)")
        return Reading(
            kind: .phoneNumber, date: day.description, title: Localized(en: "Phone number", th: "เบอร์โทรศัพท์"),
            text: total.joined(verdictText(verdict)), verdict: verdict, scores: scores, parts: parts)
    }

    private func verdictText(_ verdict: Verdict) -> Localized {
        content.verdicts[verdict.rawValue] ?? Localized(en: verdict.rawValue, th: verdict.rawValue)
    }

    package static func clamp(_ value: Int) -> Int { max(0, min(100, value)) }
}
