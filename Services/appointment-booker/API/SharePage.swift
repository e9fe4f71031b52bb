import Foundation

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
        let description = String(text.prefix(200))
        let meta = [
            ("property", "og:type", "article"), ("property", "og:site_name", "Horoscope"), ("property", "og:title", title),
            ("property", "og:description", description), ("property", "og:image", imageURL), ("property", "og:url", pageURL),
            ("name", "twitter:card", "summary_large_image"), ("name", "twitter:title", title),
            ("name", "twitter:description", description), ("name", "twitter:image", imageURL), ("name", "description", description),
        ].map { #"<meta \#($0.0)="\#($0.1)" content="\#(escape($0.2))">"# }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="\(language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            \(meta)
            <style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5}</style>
            </head>
            <body>
            <main>
            <h1>\(escape(title))</h1>
            <p>\(escape(reading.date)) · \(escape(verdict))</p>
            <p>\(escape(scores))</p>
            \(personal ? "" : "<p>\(escape(text))</p>")
            </main>
            </body>
            </html>

            """
    }

    /// A short page for a link that is not (or no longer) here.
    static func gone(_ message: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(message))</title><meta name="robots" content="noindex"></head>
        <body><main><p>\(escape(message))</p></main></body></html>

        """
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
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
