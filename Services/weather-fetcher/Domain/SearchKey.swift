import Foundation

/// The form city names are searched in (W1): lower case, without accents, letters such as `ł` and `ß`
/// spelt out as GeoNames' ASCII names spell them, runs of spaces collapsed. The catalogue stores each
/// city's key; a query is folded the same way, so `zür`, `ZUR` and `Zur` all find Zürich.
package enum SearchKey {
    private static let spelledOut: [Character: String] = [
        "ł": "l", "ø": "o", "ß": "ss", "æ": "ae", "œ": "oe", "đ": "d", "ı": "i", "þ": "th", "ð": "d",
        "ʻ": "'", "ʼ": "'", "‘": "'", "’": "'",
    ]

    package static func fold(_ text: String) -> String {
        foldASCII(text) ?? foldUnicode(text)
    }

    package static func foldUnicode(_ text: String) -> String {
        let lowered = text.lowercased()
        var spelled = ""
        spelled.reserveCapacity(lowered.utf8.count)
        for character in lowered {
            if let replacement = spelledOut[character] { spelled += replacement } else { spelled.append(character) }
        }
        let folded = spelled.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        return folded.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The same fold for text that is all ASCII (every GeoNames ASCII name, most queries): lower case, spaces
    /// collapsed, with no trip through Foundation's folding, which made the catalogue import's keys its slowest step.
    /// Nil when any byte is not ASCII.
    package static func foldASCII(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var spaceDue = false
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            if byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte) {
                spaceDue = !bytes.isEmpty
                continue
            }
            if spaceDue {
                bytes.append(UInt8(ascii: " "))
                spaceDue = false
            }
            bytes.append((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// What a search asks for: a prefix (`ber`), or a pattern with `*` (any run of letters) and `?` (one letter)
/// matched from the start (`san*jose`), or either anywhere in the name when `contains` is set.
package struct CitySearchPattern: Equatable {
    /// A SQL `LIKE` pattern over search keys, with `\` escaping literal `%`, `_` and `\`.
    package let likePattern: String

    /// Every city.
    package static let everything = CitySearchPattern(likePattern: "%")

    private init(likePattern: String) {
        self.likePattern = likePattern
    }

    package init?(query: String, contains: Bool) {
        let key = SearchKey.fold(query)
        guard !key.isEmpty else { return nil }
        var pattern = contains ? "%" : ""
        for character in key {
            switch character {
            case "*": pattern += "%"
            case "?": pattern += "_"
            case "%", "_", "\\": pattern += "\\\(character)"
            default: pattern.append(character)
            }
        }
        if !pattern.hasSuffix("%") { pattern += "%" }
        likePattern = pattern
    }

    /// Letters a pattern that is not anchored at the start (`contains`, a leading `*` or `?`) must hold at least:
    /// such a pattern cannot use the name index, so every name is read; three letters keep the matches few.
    package static let minimumUnanchoredLetters = 3

    /// Whether the pattern may match anywhere in a name (it cannot read one range of the index).
    package var isUnanchored: Bool { (likePattern.hasPrefix("%") || likePattern.hasPrefix("_")) && self != .everything }

    /// The characters the pattern names literally (not `%` or `_`).
    package var literalCount: Int {
        var count = 0
        var escaped = false
        for character in likePattern {
            switch (escaped, character) {
            case (true, _):
                count += 1
                escaped = false
            case (false, "\\"): escaped = true
            case (false, "%"), (false, "_"): break
            default: count += 1
            }
        }
        return count
    }
}
