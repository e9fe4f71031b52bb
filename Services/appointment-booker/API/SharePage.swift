import Foundation
import PlatformEvents
import PlatformHTTP

/// The public page a shared reading's link opens (B4): the reading for a person, and Open Graph and Twitter card
/// tags for the preview a chat or social app draws from the link. Nothing personal (`ShareMasking`).
enum SharePage {
    /// The page of `reading`, at `pageURL`, its preview image at `imageURL`.
    static func html(_ reading: Reading, language: Language, pageURL: String, imageURL: String) -> String {
        let personal = ShareMasking.isPersonal(reading.kind)
        let title = personal ? kindTitle(reading.kind).text(language) : ShareMasking.maskingNumbers(reading.title.text(language))
        let scores = scoreLine(reading.scores, language: language)
        let verdict = reading.verdict.word.text(language)
        let text = personal ? "\(verdict). \(scores)" : ShareMasking.maskingNumbers(reading.text.text(language))
        let preview = SharePageHTML.Preview(
            siteName: "Horoscope", title: title, description: text, pageURL: pageURL, imageURL: imageURL, language: language.rawValue)
        return SharePageHTML.page(preview, paragraphs: ["\(reading.date) · \(verdict)", scores] + (personal ? [] : [text]))
    }

    private static func kindTitle(_ kind: Reading.Kind) -> Localized {
        switch kind {
        case .phoneNumber: Localized(en: "A phone number reading", th: "ดูดวงเบอร์โทรศัพท์")
        case .compatibility: Localized(en: "A compatibility reading", th: "ดูดวงสมพงษ์")
        case .horoscope: Localized(en: "A horoscope", th: "ดูดวงรายวัน")
        case .tarot: Localized(en: "A tarot reading", th: "ดูไพ่ทาโรต์")
        case .fortuneStick: Localized(en: "A fortune stick", th: "เซียมซี")
        }
    }

    private static func scoreLine(_ scores: Reading.Scores, language: Language) -> String {
        let names: [Localized] = [
            .init(en: "Love", th: "ความรัก"), .init(en: "Work", th: "การงาน"), .init(en: "Money", th: "การเงิน"), .init(en: "Health", th: "สุขภาพ"),
        ]
        let values = [scores.love, scores.work, scores.money, scores.health]
        return zip(names, values).map { "\($0.text(language)) \($1)" }.joined(separator: ", ")
    }
}

extension Verdict {
    /// The verdict in a few words, for share texts and pages.
    var word: Localized {
        switch self {
        case .good: .init(en: "a good sign", th: "ดวงดี")
        case .neutral: .init(en: "a balanced day", th: "ดวงกลาง ๆ")
        case .bad: .init(en: "a day for care", th: "ดวงต้องระวัง")
        }
    }
}
