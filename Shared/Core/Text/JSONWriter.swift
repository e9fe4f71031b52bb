/// Writes JSON text member by member, for the few large documents written on a hot path where `JSONEncoder`
/// costs more than the work around it (a forecast stored and announced for every city every cadence). The caller
/// writes the shape; the writer puts the commas. A number that JSON cannot hold (NaN, infinity) throws, as
/// `JSONEncoder` does, rather than writing text no reader takes.
public struct JSONWriter {
    public struct NotFinite: Error, CustomStringConvertible {
        public let key: String
        public var description: String { "\(key) is not a finite number" }
    }

    public private(set) var bytes: [UInt8] = []
    /// Whether the container being written has no member yet (no comma before the next one).
    private var empty = true
    private var lastKey = ""

    public init(capacity: Int = 1_024) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        empty = true
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        empty = false
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        empty = true
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        empty = false
    }

    /// A member's key; its value is written next.
    public mutating func key(_ name: String) {
        separate()
        append(quoted: name)
        bytes.append(UInt8(ascii: ":"))
        // The value that follows needs no comma of its own.
        empty = true
        lastKey = name
    }

    public mutating func string(_ value: String) {
        separate()
        append(quoted: value)
    }

    public mutating func number(_ value: Double) throws(NotFinite) {
        guard value.isFinite else { throw NotFinite(key: lastKey) }
        separate()
        // A whole number without its ".0", as `JSONEncoder` writes it.
        let text = value.description
        bytes.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
    }

    public mutating func number(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Text that is JSON already (a value written before), as it is.
    public mutating func raw(_ json: some Collection<UInt8>) {
        separate()
        bytes.append(contentsOf: json)
    }

    /// `key` and a value; an optional's nil is left out, as `JSONEncoder` leaves it out.
    public mutating func member(_ key: String, _ value: String) {
        self.key(key)
        string(value)
    }

    public mutating func member(_ key: String, _ value: Double?) throws(NotFinite) {
        guard let value else { return }
        self.key(key)
        try number(value)
    }

    public mutating func member(_ key: String, _ value: Int) {
        self.key(key)
        number(value)
    }

    private mutating func separate() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
    }

    /// As `JSONEncoder` writes strings (slashes escaped), so that hand-written events are its bytes exactly.
    private mutating func append(quoted text: String) {
        JSONString.append(quoted: text, to: &bytes, escapingSlashes: true)
    }
}
