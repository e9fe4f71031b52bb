import NIOCore
import PostgresNIO

/// A `text[]` bind whose elements may be NULL. postgres-nio encodes arrays of non-optional values only;
/// set-based statements (`unnest` of one array per column) need the optional columns too.
public struct NullableTextArray: PostgresNonThrowingEncodable, Sendable {
    public var elements: [String?]

    public init(_ elements: [String?]) {
        self.elements = elements
    }

    public static var psqlType: PostgresDataType { .textArray }
    public static var psqlFormat: PostgresFormat { .binary }

    /// The binary array format (`array_recv`): dimensions, has-nulls flag, element type, then one dimension
    /// (length, lower bound 1) and each element as a length (-1 for NULL) and its bytes.
    public func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        buffer.writeInteger(elements.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(elements.contains(where: { $0 == nil }) ? 1 : 0, as: Int32.self)
        buffer.writeInteger(PostgresDataType.text.rawValue)
        guard !elements.isEmpty else { return }
        buffer.writeInteger(Int32(truncatingIfNeeded: elements.count), as: Int32.self)
        buffer.writeInteger(1, as: Int32.self)
        for element in elements {
            guard let element else {
                buffer.writeInteger(-1, as: Int32.self)
                continue
            }
            let lengthIndex = buffer.writerIndex
            buffer.writeInteger(0, as: Int32.self)
            let written = buffer.writeString(element)
            buffer.setInteger(Int32(truncatingIfNeeded: written), at: lengthIndex, as: Int32.self)
        }
    }
}
