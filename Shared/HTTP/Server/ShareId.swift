/// The last path segment of a share link (B4, W10): ten characters of base 62 from the system's random source,
/// about 59 bits, not guessable in practice. Anything else in its place is looked up nowhere.
public enum ShareId {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<10).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    public static func isValid(_ text: String) -> Bool {
        text.utf8.count == 10 && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }
}
