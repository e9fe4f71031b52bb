/// What anyone holding a reading's share link may see of it (B4), on the public page and in the app's JSON alike: no
/// one's phone number or name. A phone-number or compatibility reading is about someone's number or names, so it
/// shows what kind of reading it was, its verdict and its scores, not its words nor its parts (a number's digit
/// pairs); any other reading's words pass with every run of nine or more digits (a phone number's length; a date
/// has eight) masked but the last two.
package enum ShareMasking {
    package static func isPersonal(_ kind: Reading.Kind) -> Bool { kind == .phoneNumber || kind == .compatibility }

    /// `reading` as a share link shows it.
    package static func shared(_ reading: Reading) -> Reading {
        var shared = reading
        if isPersonal(reading.kind) {
            shared.title = kindTitle(reading.kind)
            shared.text = reading.verdict.word.joined(scoreLine(reading.scores), separator: ". ")
            shared.parts = []
        } else {
            shared.title = masked(reading.title)
            shared.text = masked(reading.text)
            shared.parts = reading.parts.map { Reading.Part(label: masked($0.label), text: masked($0.text)) }
        }
        return shared
    }

    package static func kindTitle(_ kind: Reading.Kind) -> Localized {
        switch kind {
        case .phoneNumber: Localized(en: "A phone number reading", th: "ดูดวงเบอร์โทรศัพท์")
        case .compatibility: Localized(en: "A compatibility reading", th: "ดูดวงสมพงษ์")
        case .horoscope: Localized(en: "A horoscope", th: "ดูดวงรายวัน")
        case .tarot: Localized(en: "A tarot reading", th: "ดูไพ่ทาโรต์")
        case .fortuneStick: Localized(en: "A fortune stick", th: "เซียมซี")
        }
    }

    /// The scores in words: `Love 50, Work 61, Money 40, Health 72`.
    package static func scoreLine(_ scores: Reading.Scores) -> Localized {
        let names: [Localized] = [
            .init(en: "Love", th: "ความรัก"), .init(en: "Work", th: "การงาน"), .init(en: "Money", th: "การเงิน"), .init(en: "Health", th: "สุขภาพ"),
        ]
        let values = [scores.love, scores.work, scores.money, scores.health]
        return Localized(
            en: zip(names, values).map { "\($0.en) \($1)" }.joined(separator: ", "),
            th: zip(names, values).map { "\($0.th) \($1)" }.joined(separator: ", "))
    }

    private static func masked(_ text: Localized) -> Localized { Localized(en: maskingNumbers(text.en), th: maskingNumbers(text.th)) }

    /// `text` with each run of 9+ digits (spaces, dots, dashes and brackets between them count in the run) shown
    /// as bullets but its last two digits.
    package static func maskingNumbers(_ text: String) -> String {
        var output = ""
        var run: [Character] = []
        func flush() {
            let digits = run.filter(\.isNumber).count
            if digits >= 9 {
                var seen = 0
                for character in run {
                    if character.isNumber {
                        seen += 1
                        output.append(seen > digits - 2 ? character : "•")
                    } else {
                        output.append(character)
                    }
                }
            } else {
                output.append(contentsOf: run)
            }
            run.removeAll()
        }
        for character in text {
            if character.isNumber || (!run.isEmpty && " .-()".contains(character)) {
                run.append(character)
            } else {
                flush()
                output.append(character)
            }
        }
        flush()
        return output
    }
}

extension Verdict {
    /// The verdict in a few words, for share texts and pages.
    package var word: Localized {
        switch self {
        case .good: .init(en: "a good sign", th: "ดวงดี")
        case .neutral: .init(en: "a balanced day", th: "ดวงกลาง ๆ")
        case .bad: .init(en: "a day for care", th: "ดวงต้องระวัง")
        }
    }
}
