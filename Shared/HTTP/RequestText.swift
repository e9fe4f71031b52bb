import Foundation

/// Text from a request body as the services store it. Postgres refuses NUL characters, so they are dropped
/// (a 500 otherwise: the fuzzer found it). "Blank" is defined by an explicit set, the same one the API
/// documents state as `pattern: '[^ \t\n\r\f\v\u0000]'` (at least one other character): a looser
/// definition in code (Swift's Unicode whitespace) would refuse names the document allows.
public enum RequestText {
    /// Space, tab, line feed, carriage return, form feed, vertical tab, and NUL.
    static let blanks: Set<Character> = [" ", "\t", "\n", "\r", "\u{0C}", "\u{0B}", "\u{0}"]

    /// The text without NULs and without blanks at either end.
    public static func trimmed(_ text: String) -> String {
        let clean = withoutNUL(text)
        guard let first = clean.firstIndex(where: { !blanks.contains($0) }), let last = clean.lastIndex(where: { !blanks.contains($0) })
        else { return "" }
        return String(clean[first...last])
    }

    public static func withoutNUL(_ text: String) -> String {
        text.contains("\u{0}") ? text.replacingOccurrences(of: "\u{0}", with: "") : text
    }
}
