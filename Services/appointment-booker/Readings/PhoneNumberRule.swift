/// The seed's phone-number check (horoscope-design, figure 7): no letters at all and exactly ten digits;
/// other characters (spaces, dashes, a plus) are ignored, as the seed's counting ignores them. Thai digits
/// count as digits, as Foundation's decimal-digit set counts them in the seed.
enum PhoneNumberRule {
    static let rule = "must hold exactly 10 digits and no letters"

    /// The ten digit values, or nil when the text breaks the rule.
    static func digits(of text: String) -> [Int]? {
        var digits: [Int] = []
        for scalar in text.unicodeScalars {
            if scalar.properties.isAlphabetic && scalar.properties.numericType == nil { return nil }
            if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue.flatMap({ Int(exactly: $0) }),
                (0...9).contains(value)
            {
                digits.append(value)
                if digits.count > 10 { return nil }
            }
        }
        return digits.count == 10 ? digits : nil
    }
}
