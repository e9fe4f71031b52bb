/// One reading (B4) in both languages: text, verdict and a score per life area for the app's graph, plus
/// its parts (a card per position, a digit pair). Stored as it was made, so history and share links show
/// the same words even after the content changes.
struct Reading: Codable, Sendable, Equatable {
    struct Scores: Codable, Sendable, Equatable {
        var love: Int
        var work: Int
        var money: Int
        var health: Int

        var average: Double { Double(love + work + money + health) / 4 }
    }

    struct Part: Codable, Sendable, Equatable {
        var label: Localized
        var text: Localized
    }

    enum Kind: String, Codable, Sendable, CaseIterable {
        case horoscope
        case tarot
        case fortuneStick = "fortune-stick"
        case compatibility
        case phoneNumber = "phone-number"

        /// The paid feature a reading of this kind needs (U6), nil for a free one.
        var entitlement: String? {
            switch self {
            case .horoscope: nil
            case .tarot: "tarot"
            case .fortuneStick: "fortune_stick"
            case .compatibility: "compatibility"
            case .phoneNumber: "phone_number"
            }
        }
    }

    var kind: Kind
    /// The local day it is for, `YYYY-MM-DD`.
    var date: String
    var title: Localized
    var text: Localized
    var verdict: Verdict
    var scores: Scores
    var parts: [Part]
    var stickNumber: Int?
}
