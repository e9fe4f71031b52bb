/// Reads JSON text value by value, for the few large documents read on a hot path where `JSONDecoder` costs more
/// than the work around it (a provider's forecast of a thousand cities). The caller walks the shape it expects and
/// skips what it does not use; anything else (a wrong type, a truncated text, a number out of range) throws
/// `Malformed` with the offset, never traps.
public struct JSONScanner {
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public let offset: Int
        public let expected: String
        public var description: String { "malformed JSON at byte \(offset): expected \(expected)" }

        public init(offset: Int, expected: String) {
            self.offset = offset
            self.expected = expected
        }
    }

    private let bytes: [UInt8]
    private var position = 0

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Where the next value starts (call `peek` first to step over whitespace), or where the last one ended: a caller
    /// that keeps a value's bytes for later (an event's payload) takes them from here to after `skipValue`.
    public var offset: Int { position }

    /// Nothing but whitespace is left.
    public var isAtEnd: Bool {
        var index = position
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        return index == bytes.count
    }

    /// The next value's first byte, whitespace skipped: `{`, `[`, `"`, `n`, `t`, `f` or a number's.
    public mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    public mutating func beginObject() throws(Malformed) { try expect(UInt8(ascii: "{"), "an object") }
    public mutating func beginArray() throws(Malformed) { try expect(UInt8(ascii: "["), "an array") }

    /// The next key of the object being read, or nil at its end (the closing brace is read).
    public mutating func nextKey() throws(Malformed) -> String? {
        guard try nextMember(closing: UInt8(ascii: "}")) else { return nil }
        let key = try string()
        try expect(UInt8(ascii: ":"), "a colon")
        return key
    }

    /// Whether the array being read has another element (false at its end: the closing bracket is read).
    public mutating func nextElement() throws(Malformed) -> Bool {
        try nextMember(closing: UInt8(ascii: "]"))
    }

    /// Reads `null` if it is next.
    public mutating func null() -> Bool {
        skipWhitespace()
        guard bytes.count - position >= 4, bytes[position] == UInt8(ascii: "n"), bytes[position + 1] == UInt8(ascii: "u"),
            bytes[position + 2] == UInt8(ascii: "l"), bytes[position + 3] == UInt8(ascii: "l")
        else { return false }
        position += 4
        return true
    }

    public mutating func bool() throws(Malformed) -> Bool {
        skipWhitespace()
        if literal("true") { return true }
        if literal("false") { return false }
        throw Malformed(offset: position, expected: "true or false")
    }

    /// A number as JSON writes it. Up to 15 significant digits and a power of ten within ±22 are computed exactly
    /// (both are exact doubles, and one multiplication or division rounds once); anything else goes through the
    /// standard library's parser, so the result is what `JSONDecoder` gives.
    public mutating func double() throws(Malformed) -> Double {
        skipWhitespace()
        let start = position
        let negative = minus()
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        let integerStart = position
        while position < bytes.count, let digit = Self.digit(bytes[position]) {
            if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(digit) } else { exponent += 1 }
            if mantissa != 0 || digits > 0 { digits += 1 }
            position += 1
        }
        guard position > integerStart else { throw Malformed(offset: start, expected: "a number") }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            let fractionStart = position
            while position < bytes.count, let digit = Self.digit(bytes[position]) {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    exponent -= 1
                    if mantissa != 0 { digits += 1 }
                }
                position += 1
            }
            guard position > fractionStart else { throw Malformed(offset: start, expected: "a number") }
        }
        var exact = true
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            exact = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            let exponentStart = position
            while position < bytes.count, Self.digit(bytes[position]) != nil { position += 1 }
            guard position > exponentStart else { throw Malformed(offset: start, expected: "a number") }
        }
        if exact, digits <= 15, (-22...22).contains(exponent) {
            var value = Double(mantissa)
            if exponent < 0 { value /= Self.powersOfTen[-exponent] } else { value *= Self.powersOfTen[exponent] }
            return negative ? -value : value
        }
        guard let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)), value.isFinite else {
            throw Malformed(offset: start, expected: "a finite number")
        }
        return value
    }

    /// A whole number that fits an `Int` (a fraction or an exponent is refused, as `JSONDecoder` refuses them).
    public mutating func integer() throws(Malformed) -> Int {
        skipWhitespace()
        let start = position
        let negative = minus()
        var value = 0
        let digitsStart = position
        while position < bytes.count, let digit = Self.digit(bytes[position]) {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) = times.addingReportingOverflow(negative ? -Int(digit) : Int(digit))
            guard !overflow, !overflowAgain else { throw Malformed(offset: start, expected: "a number that fits an Int") }
            value = sum
            position += 1
        }
        guard position > digitsStart else { throw Malformed(offset: start, expected: "a whole number") }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") || bytes[position] | 0x20 == UInt8(ascii: "e") {
            throw Malformed(offset: start, expected: "a whole number")
        }
        return value
    }

    public mutating func string() throws(Malformed) -> String {
        skipWhitespace()
        let start = position
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw Malformed(offset: start, expected: "a string") }
        position += 1
        let contentStart = position
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                defer { position += 1 }
                return String(decoding: bytes[contentStart..<position], as: UTF8.self)
            case UInt8(ascii: "\\"):
                position = contentStart - 1
                return try escapedString()
            default:
                position += 1
            }
        }
        throw Malformed(offset: start, expected: "a closed string")
    }

    /// Values nested deeper than this are refused, as `JSONDecoder` refuses them: skipping recurses once per level,
    /// and a message of a million `[` would otherwise overflow the stack (a trap no error handling can catch).
    public static let maximumDepth = 512

    /// Skips one value of any kind, nested ones included (up to `maximumDepth` levels).
    public mutating func skipValue() throws(Malformed) {
        try skipValue(depth: 1)
    }

    private mutating func skipValue(depth: Int) throws(Malformed) {
        guard depth <= Self.maximumDepth else { throw Malformed(offset: position, expected: "at most \(Self.maximumDepth) levels of nesting") }
        switch peek() {
        case UInt8(ascii: "{"):
            try beginObject()
            while try nextKey() != nil { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            try beginArray()
            while try nextElement() { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            _ = try bool()
        case UInt8(ascii: "n"):
            guard null() else { throw Malformed(offset: position, expected: "null") }
        default:
            _ = try double()
        }
    }

    // MARK: Helpers

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Reads a leading minus sign if it is next.
    private mutating func minus() -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "-") else { return false }
        position += 1
        return true
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0A, 0x0D, 0x09: true
        default: false
        }
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : nil
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Malformed) {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { throw Malformed(offset: position, expected: what) }
        position += 1
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        for index in 0..<count where bytes[position + index] != word.utf8Start[index] { return false }
        position += count
        return true
    }

    /// After an opening bracket or a member: true when another member follows (its comma read), false at `closing`.
    private mutating func nextMember(closing: UInt8) throws(Malformed) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw Malformed(offset: position, expected: "more JSON") }
        if bytes[position] == closing {
            position += 1
            return false
        }
        // The member before this one (if any) was read: a comma separates them; none comes before the first.
        if position > 0, bytes[previousNonWhitespace()] != UInt8(ascii: "{"), bytes[previousNonWhitespace()] != UInt8(ascii: "[") {
            try expect(UInt8(ascii: ","), "a comma")
        }
        return true
    }

    private func previousNonWhitespace() -> Int {
        var index = position - 1
        while index > 0, Self.isWhitespace(bytes[index]) { index -= 1 }
        return index
    }

    /// The slow path for a string with escapes; `position` is at its opening quote.
    private mutating func escapedString() throws(Malformed) -> String {
        let start = position
        position += 1
        var scalars = String.UnicodeScalarView()
        var pending: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
            pending.removeAll(keepingCapacity: true)
        }
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4(start)
                    if (0xD800..<0xDC00).contains(code), literal("\\u") {
                        let low = try hex4(start)
                        guard (0xDC00..<0xE000).contains(low) else { throw Malformed(offset: start, expected: "a surrogate pair") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw Malformed(offset: start, expected: "a valid \\u escape") }
                    scalars.append(scalar)
                default:
                    throw Malformed(offset: position - 1, expected: "a valid escape")
                }
            default:
                pending.append(byte)
            }
        }
        throw Malformed(offset: start, expected: "a closed string")
    }

    private mutating func hex4(_ start: Int) throws(Malformed) -> UInt32 {
        guard bytes.count - position >= 4 else { throw Malformed(offset: start, expected: "four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = UInt32(String(Unicode.Scalar(bytes[position])), radix: 16) else {
                throw Malformed(offset: start, expected: "four hex digits")
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }
}
