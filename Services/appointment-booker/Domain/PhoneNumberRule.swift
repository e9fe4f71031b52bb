/// The seed's phone-number check (horoscope-design, figure 7): exactly ten digits and no letters. The
/// seed ignores whatever else the field holds; here that is narrowed to the separators people type
/// (space, `+`, `-`, `.`, brackets) so the rule is one pattern in the API document and the fuzzer can check
/// it: anything else is refused like a letter. Thai digits count as digits, as the seed's decimal-digit set
/// counts them.
package enum PhoneNumberRule {
    package static let rule = "must hold exactly 10 digits and no letters (spaces, dashes, dots, + and brackets are ignored)"

    package static let separators: Set<Unicode.Scalar> = [" ", "+", "-", ".", "(", ")"]

    /// The ten digit values, or nil when the text breaks the rule.
    package static func digits(of text: String) -> [Int]? {
        number(text)?.digits
    }

    /// The number, or nil when the text breaks the rule.
    package static func number(_ text: String) -> PhoneDigits? {
        var digits: [Int] = []
        for scalar in text.unicodeScalars {
            if separators.contains(scalar) { continue }
            if let value = digit(scalar) {
                digits.append(value)
                if digits.count > 10 { return nil }
                continue
            }
            return nil
        }
        return PhoneDigits(digits)
    }

    /// 0-9 for an ASCII or a Thai digit (U+0E50-U+0E59).
    package static func digit(_ scalar: Unicode.Scalar) -> Int? {
        switch scalar.value {
        case 0x30...0x39: Int(scalar.value - 0x30)
        case 0x0E50...0x0E59: Int(scalar.value - 0x0E50)
        default: nil
        }
    }
}

/// Exactly ten digits 0-9: what the phone-number reading indexes into, made only through the rule's checks.
package struct PhoneDigits: Sendable, Equatable {
    package let digits: [Int]

    package init?(_ digits: [Int]) {
        guard digits.count == 10, digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
        self.digits = digits
    }

    /// The reading's inputs as kept (`ReadingStore.keep`): the ten digits, whatever separators were written.
    package var inputs: String { digits.map(String.init).joined() }
}
