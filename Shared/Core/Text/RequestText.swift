import Foundation

/// Text from a request body as the services store it. Postgres refuses NUL characters, so they are dropped
/// (a 500 otherwise: the fuzzer found it). "Blank" is defined by an explicit set, the same one the API
/// documents state as `pattern: '[^ \t\n\r\f\v\u0000]'` (at least one other character): a looser
/// definition in code (Swift's Unicode whitespace) would refuse names the document allows.
public enum RequestText {
    // Blanks: space, tab, line feed, carriage return, form feed, vertical tab, and NUL.

    /// The text without NULs and without blanks at either end. By Unicode scalar, as the document's
    /// pattern reads it: "\r\n" is one Swift character but two blanks.
    public static func trimmed(_ text: String) -> String {
        let scalars = withoutNUL(text).unicodeScalars
        guard let first = scalars.firstIndex(where: { !blankScalars.contains($0) }),
            let last = scalars.lastIndex(where: { !blankScalars.contains($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    /// The trimmed text, or nil when nothing but blanks was sent (an optional field left blank is not given).
    public static func nonBlank(_ text: String?) -> String? {
        text.map(trimmed).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The length JSON Schema's `maxLength` counts: Unicode code points, not Swift characters (`é` written
    /// as `e` + combining accent is two).
    public static func length(_ text: String) -> Int {
        text.unicodeScalars.count
    }

    public static func withoutNUL(_ text: String) -> String {
        text.contains("\u{0}") ? text.replacingOccurrences(of: "\u{0}", with: "") : text
    }

    static let blankScalars: Set<Unicode.Scalar> = [" ", "\t", "\n", "\r", "\u{0C}", "\u{0B}", "\u{0}"]
}
