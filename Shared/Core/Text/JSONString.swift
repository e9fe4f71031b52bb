/// JSON text written by hand where Codable would cost too much per call (hot answers, log lines).
public enum JSONString {
    /// A JSON string literal: quotes, backslashes and control characters escaped, everything else as is.
    public static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        append(quoted: text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `quoted(text)` appended to `bytes`. `escapingSlashes` writes `/` as `\/`, as `JSONEncoder` does, for text that
    /// must be byte for byte what it writes. Only ASCII bytes are escaped: no byte of a multi-byte UTF-8 sequence is.
    public static func append(quoted text: String, to bytes: inout [UInt8], escapingSlashes: Bool = false) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "/") where escapingSlashes: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "/")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(contentsOf: [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
