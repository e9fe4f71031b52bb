import Foundation

/// The CBOR (RFC 8949) an App Attest attestation object is written in: definite-length maps, arrays, byte and text
/// strings and integers, nothing else. Decoding never traps on what a client sends: every length is checked against
/// what is left before anything is read or allocated, and nesting is bounded.
enum CBORValue: Equatable, Sendable {
    case unsigned(UInt64)
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    case map([(key: CBORValue, value: CBORValue)])

    static func == (a: CBORValue, b: CBORValue) -> Bool {
        switch (a, b) {
        case (.unsigned(let x), .unsigned(let y)), (.negative(let x), .negative(let y)): x == y
        case (.bytes(let x), .bytes(let y)): x == y
        case (.text(let x), .text(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.map(let x), .map(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The value of `key` in a map with text keys.
    subscript(key: String) -> CBORValue? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == .text(key) }?.value
    }

    var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    var textString: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    var arrayItems: [CBORValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The one value `data` holds; nil for anything else (trailing bytes, a kind this decoder does not take).
    init?(decoding data: [UInt8]) {
        var reader = Reader(bytes: data)
        guard let value = reader.value(depth: 0), reader.offset == data.count else { return nil }
        self = value
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0
        static let maxDepth = 16

        mutating func value(depth: Int) -> CBORValue? {
            guard depth <= Self.maxDepth, offset < bytes.count else { return nil }
            let initial = bytes[offset]
            offset += 1
            let major = initial >> 5
            guard let argument = argument(initial & 0x1F) else { return nil }
            switch major {
            case 0: return .unsigned(argument)
            case 1: return .negative(argument)
            case 2: return take(argument).map(CBORValue.bytes)
            case 3: return take(argument).flatMap { String(bytes: $0, encoding: .utf8) }.map(CBORValue.text)
            case 4:
                guard argument <= UInt64(bytes.count - offset) else { return nil }
                var items: [CBORValue] = []
                for _ in 0..<argument {
                    guard let item = value(depth: depth + 1) else { return nil }
                    items.append(item)
                }
                return .array(items)
            case 5:
                guard argument <= UInt64(bytes.count - offset) / 2 else { return nil }
                var pairs: [(key: CBORValue, value: CBORValue)] = []
                for _ in 0..<argument {
                    guard let key = value(depth: depth + 1), let item = value(depth: depth + 1) else { return nil }
                    pairs.append((key, item))
                }
                return .map(pairs)
            default:
                // Tags, floats, simple values and indefinite lengths do not occur in an attestation object.
                return nil
            }
        }

        /// The head's argument: the low bits themselves, or the 1, 2, 4 or 8 bytes after them.
        private mutating func argument(_ low: UInt8) -> UInt64? {
            let size: Int
            switch low {
            case 0..<24: return UInt64(low)
            case 24: size = 1
            case 25: size = 2
            case 26: size = 4
            case 27: size = 8
            default: return nil
            }
            guard size <= bytes.count - offset else { return nil }
            let value = bytes[offset..<(offset + size)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            offset += size
            return value
        }

        private mutating func take(_ count: UInt64) -> [UInt8]? {
            guard count <= UInt64(bytes.count - offset) else { return nil }
            let end = offset + Int(count)
            defer { offset = end }
            return Array(bytes[offset..<end])
        }
    }
}
