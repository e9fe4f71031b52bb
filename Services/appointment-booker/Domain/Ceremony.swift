/// How to remove bad luck (B4): a ceremony for a bad reading, chosen by its weakest life area, with the kind
/// of place to hold it, what to bring and the steps, in Thai and English (`Content/ceremonies.json`).
package struct Ceremony: Codable, Sendable, Equatable {
    /// Where it is held; the places to pray nearby are any places of worship.
    package enum Place: String, Codable, Sendable, CaseIterable {
        case temple
        case shrine
        case cityPillar = "city-pillar"
    }

    package var title: Localized
    package var place: Place
    package var placeName: Localized
    package var bring: [Localized]
    package var steps: [Localized]

    package init(title: Localized, place: Place, placeName: Localized, bring: [Localized], steps: [Localized]) {
        self.title = title
        self.place = place
        self.placeName = placeName
        self.bring = bring
        self.steps = steps
    }

    package var isComplete: Bool {
        title.isComplete && placeName.isComplete && bring.count >= 2 && bring.allSatisfy(\.isComplete) && steps.count >= 3
            && steps.allSatisfy(\.isComplete)
    }
}

/// A reading's life areas, in the order a tie between weakest areas is settled.
package enum LifeArea: String, Codable, Sendable, CaseIterable {
    case love, work, money, health

    package func score(in scores: Reading.Scores) -> Int {
        switch self {
        case .love: scores.love
        case .work: scores.work
        case .money: scores.money
        case .health: scores.health
        }
    }

    /// The area with the lowest score; the first in `allCases` on a tie.
    package static func weakest(in scores: Reading.Scores) -> LifeArea {
        allCases.min { $0.score(in: scores) < $1.score(in: scores) } ?? .love
    }
}
