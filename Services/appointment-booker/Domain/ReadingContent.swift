import Foundation

/// The readings' texts (B4), in Thai and English, from the versioned data files in `Content/` (written for
/// this project). Loaded once at start and checked complete: a missing sign, card, stick or text stops the
/// service rather than answering a reading without words.
package struct ReadingContent: Sendable {
    package struct Sign: Codable, Sendable {
        package var id: String
        package var name: Localized
        package var element: String
        package var trait: Localized
        package var advice: [Localized]

        package init(id: String, name: Localized, element: String, trait: Localized, advice: [Localized]) {
            self.id = id
            self.name = name
            self.element = element
            self.trait = trait
            self.advice = advice
        }
    }

    package struct Card: Codable, Sendable {
        package enum Arcana: String, Codable, Sendable {
            case major, minor
        }

        package var id: String
        package var arcana: Arcana
        package var name: Localized
        package var upright: Localized
        package var reversed: Localized

        package init(id: String, arcana: Arcana, name: Localized, upright: Localized, reversed: Localized) {
            self.id = id
            self.arcana = arcana
            self.name = name
            self.upright = upright
            self.reversed = reversed
        }
    }

    package struct Stick: Codable, Sendable {
        package var number: Int
        /// A content file with another word fails to load, naming the stick.
        package var verdict: Verdict
        package var verse: Localized
        package var meaning: Localized

        package init(number: Int, verdict: Verdict, verse: Localized, meaning: Localized) {
            self.number = number
            self.verdict = verdict
            self.verse = verse
            self.meaning = meaning
        }
    }

    package struct ElementPair: Codable, Sendable {
        package var score: Int
        package var text: Localized

        package init(score: Int, text: Localized) {
            self.score = score
            self.text = text
        }
    }

    private struct SignsFile: Codable { var version: Int; var signs: [Sign]; var verdicts: [String: Localized] }
    private struct TarotFile: Codable { var version: Int; var cards: [Card]; var positions: [String: Localized] }
    private struct SticksFile: Codable { var version: Int; var sticks: [Stick] }
    private struct NumbersFile: Codable { var version: Int; var digits: [Localized]; var sumQuality: [String]; var roots: [Localized] }
    private struct CompatibilityFile: Codable { var version: Int; var elements: [String: ElementPair]; var names: [Localized] }
    private struct CeremoniesFile: Codable { var version: Int; var ceremonies: [String: Ceremony] }

    package let signs: [Sign]
    package let verdicts: [String: Localized]
    package let cards: [Card]
    package let positions: [String: Localized]
    package let sticks: [Stick]
    package let digits: [Localized]
    /// Good, neutral or bad for each digit sum of a pair, 0 to 18.
    package let sumQuality: [String]
    /// The meaning of a number's digital root, 1 to 9.
    package let roots: [Localized]
    package let elements: [String: ElementPair]
    package let names: [Localized]
    /// How to remove bad luck, per weakest life area (served with a bad reading, not stored with it).
    package let ceremonies: [String: Ceremony]
    /// The data files' versions, recorded with each stored reading.
    package let version: String

    package init(
        signs: [Sign], verdicts: [String: Localized], cards: [Card], positions: [String: Localized], sticks: [Stick], digits: [Localized],
        sumQuality: [String], roots: [Localized], elements: [String: ElementPair], names: [Localized], ceremonies: [String: Ceremony], version: String
    ) {
        self.signs = signs
        self.verdicts = verdicts
        self.cards = cards
        self.positions = positions
        self.sticks = sticks
        self.digits = digits
        self.sumQuality = sumQuality
        self.roots = roots
        self.elements = elements
        self.names = names
        self.ceremonies = ceremonies
        self.version = version
    }

    package struct Incomplete: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    package static func load(from directory: URL) throws -> ReadingContent {
        func read<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
            try JSONDecoder().decode(type, from: Data(contentsOf: directory.appendingPathComponent(name)))
        }
        let signs = try read("signs.json", as: SignsFile.self)
        let tarot = try read("tarot.json", as: TarotFile.self)
        let sticks = try read("sticks.json", as: SticksFile.self)
        let numbers = try read("numbers.json", as: NumbersFile.self)
        let compatibility = try read("compatibility.json", as: CompatibilityFile.self)
        let ceremonies = try read("ceremonies.json", as: CeremoniesFile.self)
        let content = ReadingContent(
            signs: signs.signs, verdicts: signs.verdicts, cards: tarot.cards, positions: tarot.positions, sticks: sticks.sticks,
            digits: numbers.digits, sumQuality: numbers.sumQuality, roots: numbers.roots, elements: compatibility.elements,
            names: compatibility.names, ceremonies: ceremonies.ceremonies,
            version:
                "signs-\(signs.version).tarot-\(tarot.version).sticks-\(sticks.version).numbers-\(numbers.version).compatibility-\(compatibility.version)"
        )
        try content.checkComplete()
        return content
    }

    /// Every case has its own text in both languages.
    package func checkComplete() throws {
        var problems: [String] = []
        if signs.count != 12 || Set(signs.map(\.id)).count != 12 { problems.append("12 distinct signs") }
        for sign in signs where !(sign.name.isComplete && sign.trait.isComplete && !sign.advice.isEmpty && sign.advice.allSatisfy(\.isComplete)) {
            problems.append("texts of sign \(sign.id)")
        }
        if !Set(["fire", "earth", "air", "water"]).isSuperset(of: signs.map(\.element)) { problems.append("sign elements") }
        if cards.count != 78 || Set(cards.map(\.id)).count != 78 || cards.filter({ $0.arcana == .major }).count != 22 {
            problems.append("78 distinct cards, 22 major")
        }
        for card in cards where !(card.name.isComplete && card.upright.isComplete && card.reversed.isComplete) {
            problems.append("texts of card \(card.id)")
        }
        if Set(positions.keys) != ["past", "present", "future"] || !positions.values.allSatisfy(\.isComplete) { problems.append("tarot positions") }
        if sticks.map(\.number) != Array(1...28) { problems.append("sticks 1-28 in order") }
        for stick in sticks where !(stick.verse.isComplete && stick.meaning.isComplete) {
            problems.append("stick \(stick.number)")
        }
        if digits.count != 10 || !digits.allSatisfy(\.isComplete) { problems.append("10 digit meanings") }
        if sumQuality.count != 19 || !sumQuality.allSatisfy({ Verdict(rawValue: $0) != nil }) { problems.append("19 pair-sum qualities") }
        if roots.count != 9 || !roots.allSatisfy(\.isComplete) { problems.append("9 digital roots") }
        let pairs = ["fire", "earth", "air", "water"].flatMap { a in ["fire", "earth", "air", "water"].map { b in Self.elementKey(a, b) } }
        if !Set(pairs).allSatisfy({ elements[$0]?.text.isComplete == true }) { problems.append("every element pair") }
        if names.isEmpty || !names.allSatisfy(\.isComplete) { problems.append("name compatibility texts") }
        if Set(verdicts.keys) != Set(Verdict.allCases.map(\.rawValue)) || !verdicts.values.allSatisfy(\.isComplete) {
            problems.append("verdict texts")
        }
        if Set(ceremonies.keys) != Set(LifeArea.allCases.map(\.rawValue)) || !ceremonies.values.allSatisfy(\.isComplete) {
            problems.append("a complete ceremony per life area")
        }
        guard problems.isEmpty else { throw Incomplete(description: "reading content incomplete: " + problems.joined(separator: ", ")) }
    }

    /// The key of an unordered pair of elements in the file's order (fire, earth, air, water).
    package static func elementKey(_ a: String, _ b: String) -> String {
        let order = ["fire", "earth", "air", "water"]
        let (first, second) = (order.firstIndex(of: a) ?? 0) <= (order.firstIndex(of: b) ?? 0) ? (a, b) : (b, a)
        return "\(first)-\(second)"
    }

    package func sign(_ id: String) -> Sign? { signs.first { $0.id == id } }

    /// The ceremony for a bad reading (its weakest life area's); nil for a good or neutral one.
    package func ceremony(after reading: Reading) -> (area: LifeArea, ceremony: Ceremony)? {
        guard reading.verdict == .bad else { return nil }
        let area = LifeArea.weakest(in: reading.scores)
        return ceremonies[area.rawValue].map { (area, $0) }
    }
    package func card(_ id: String) -> Card? { cards.first { $0.id == id } }
}

/// A reading's overall outcome.
package enum Verdict: String, Codable, Sendable, CaseIterable {
    case good, neutral, bad

    /// From the average of the life-area scores: 60 and up good, under 40 bad.
    package init(average: Double) {
        self = average >= 60 ? .good : average < 40 ? .bad : .neutral
    }
}
