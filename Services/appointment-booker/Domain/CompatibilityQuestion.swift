import PlatformCore

/// What a compatibility reading asks (B4): two signs (read by their elements) or two names (read as a whole), never
/// both. Its `inputs` name the reading among a user's kept ones, in an order that does not matter: the same two
/// asked the other way round, or names in other letter case, are the same reading.
package struct CompatibilityQuestion: Sendable {
    package enum Refusal: Error, Equatable {
        /// Signs asked, but not exactly two the content knows.
        case notTwoSigns
        /// Names asked, but not exactly two of 1 to 100 characters.
        case notTwoNames
        /// Neither two signs nor two names, or both.
        case notSignsOrNames
    }

    package enum Asked: Sendable {
        case signs(ReadingContent.Sign, ReadingContent.Sign)
        case names(String, String)
    }

    package let asked: Asked

    /// `names` come trimmed of blanks; their length counts Unicode code points, as the document's does.
    package init(signs: [String]?, names: [String]?, in content: ReadingContent) throws(Refusal) {
        switch (signs, names) {
        case (let signs?, nil):
            guard signs.count == 2, let first = content.sign(signs[0]), let second = content.sign(signs[1]) else { throw .notTwoSigns }
            asked = .signs(first, second)
        case (nil, let names?):
            guard names.count == 2, names.allSatisfy({ (1...100).contains($0.unicodeScalars.count) }) else { throw .notTwoNames }
            asked = .names(names[0], names[1])
        default:
            throw .notSignsOrNames
        }
    }

    /// The reading's inputs as kept (`ReadingStore.keep`): `signs:` or `names:` and the two, sorted.
    package var inputs: String {
        switch asked {
        case .signs(let first, let second): "signs:" + [first.id, second.id].sorted().joined(separator: ",")
        case .names(let first, let second): "names:" + [first, second].map { $0.lowercased() }.sorted().joined(separator: ",")
        }
    }

    /// The reading of the question on `day`.
    package func reading(by engine: ReadingEngine, on day: CivilDate) -> Reading {
        switch asked {
        case .signs(let first, let second): engine.compatibility(first, second, on: day)
        case .names(let first, let second): engine.compatibility(names: first, second, on: day)
        }
    }
}
