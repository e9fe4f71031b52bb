import NIOCore

/// Rows in the text format of `COPY ... FROM STDIN`: columns split by tabs, rows ended by newlines, and the
/// characters those would break escaped. Bulk loads send one buffer of rows instead of binding arrays of
/// values, whose element-by-element encoding cost more than the load itself. The rows grow as a `String`
/// (appends run in the standard library's optimised code) and become one buffer at the end.
public struct CopyTextRows: Sendable {
    public private(set) var text = ""
    public private(set) var count = 0

    public init() {}

    /// Appends one row; a nil column is SQL NULL.
    public mutating func append(_ columns: [String?]) {
        for (index, column) in columns.enumerated() {
            if index > 0 { text.append("\t") }
            if let column {
                text.append(Self.needsEscaping(column) ? Self.escaped(column) : column)
            } else {
                text.append("\\N")
            }
        }
        text.append("\n")
        count += 1
    }

    /// The rows, ready for `PostgresCopyFromWriter.write`.
    public var buffer: ByteBuffer { ByteBuffer(string: text) }

    /// Backslash starts an escape in the text format; tab, newline and carriage return would end a column or a row.
    private static func needsEscaping(_ text: String) -> Bool {
        text.utf8.contains { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
