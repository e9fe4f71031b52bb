/// One reading (B4) in both languages: text, verdict and a score per life area for the app's graph, plus
/// its parts (a card per position, a digit pair). Stored as it was made, so history and share links show
/// the same words even after the content changes.
package struct Reading: Codable, Sendable, Equatable {
    package struct Scores: Codable, Sendable, Equatable {
        package var love: Int
        package var work: Int
        package var money: Int
        package var health: Int

        package init(love: Int, work: Int, money: Int, health: Int) {
            self.love = love
            self.work = work
            self.money = money
            self.health = health
        }

        package var average: Double { Double(love + work + money + health) / 4 }
    }

    package struct Part: Codable, Sendable, Equatable {
        package var label: Localized
        package var text: Localized

        package init(label: Localized, text: Localized) {
            self.label = label
            self.text = text
        }
    }

    package enum Kind: String, Codable, Sendable, CaseIterable {
        case horoscope
        case tarot
        case fortuneStick = "fortune-stick"
        case compatibility
        case phoneNumber = "phone-number"

        /// The paid feature a reading of this kind needs (U6), nil for a free one.
        package var entitlement: String? {
            switch self {
            case .horoscope: nil
            case .tarot: "tarot"
            case .fortuneStick: "fortune_stick"
            case .compatibility: "compatibility"
            case .phoneNumber: "phone_number"
            }
        }
    }

    package var kind: Kind
    /// The local day it is for, `YYYY-MM-DD`.
    package var date: String
    package var title: Localized
    package var text: Localized
    package var verdict: Verdict
    package var scores: Scores
    package var parts: [Part]
    package var stickNumber: Int?

    package init(
        kind: Kind, date: String, title: Localized, text: Localized, verdict: Verdict, scores: Scores, parts: [Part], stickNumber: Int? = nil
    ) {
        self.kind = kind
        self.date = date
        self.title = title
        self.text = text
        self.verdict = verdict
        self.scores = scores
        self.parts = parts
        self.stickNumber = stickNumber
    }
}
