/// A text in the two languages of the horoscope app.
package struct Localized: Codable, Sendable, Equatable {
    package var en: String
    package var th: String

    package init(en: String, th: String) {
        self.en = en
        self.th = th
    }

    package func text(_ language: Language) -> String { language == .thai ? th : en }

    /// Both languages joined by `separator` with another text's.
    package func joined(_ other: Localized, separator: String = " ") -> Localized {
        Localized(en: en + separator + other.en, th: th + separator + other.th)
    }

    package var isComplete: Bool { !en.isEmpty && !th.isEmpty }
}

/// The language of an answer, from `Accept-Language`: Thai when the caller asks for it first, else English.
package enum Language: String, Sendable, CaseIterable {
    case english = "en"
    case thai = "th"

    package init(acceptLanguage header: String?) {
        let first =
            header?.split(separator: ",").first?.split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        self = first == "th" || first.hasPrefix("th-") ? .thai : .english
    }
}
