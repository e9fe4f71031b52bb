import Crypto
import Foundation
import PlatformCore

/// The randomness of a reading, derived only from its inputs and day with a keyed hash (HMAC-SHA256 with
/// `READING_KEY`): the same inputs on the same local day give the same reading on every instance and after
/// every restart; another day gives another. Never process-random state.
package struct ReadingSeed: Sendable {
    private let bytes: [UInt8]

    package init(key: SymmetricKey, kind: Reading.Kind, inputs: [String], date: CivilDate) {
        // Unit separators keep ("ab", "c") and ("a", "bc") apart.
        let message = ([kind.rawValue, date.description] + inputs).joined(separator: "\u{1F}")
        bytes = Array(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key))
    }

    /// A number in 0..<bound from the `index`th pair of bytes (0-15).
    package func number(_ index: Int, below bound: Int) -> Int {
        let position = (index % 16) * 2
        let value = Int(bytes[position]) << 8 | Int(bytes[position + 1])
        return bound > 0 ? value % bound : 0
    }

    /// Whether the `index`th bit is set (0-255).
    package func bit(_ index: Int) -> Bool {
        bytes[(index / 8) % bytes.count] >> UInt8(index % 8) & 1 == 1
    }

    /// Scores of 0-100 per life area from four pairs of bytes starting at `index`.
    package func scores(from index: Int = 0) -> Reading.Scores {
        Reading.Scores(
            love: number(index, below: 101), work: number(index + 1, below: 101), money: number(index + 2, below: 101),
            health: number(index + 3, below: 101))
    }
}
