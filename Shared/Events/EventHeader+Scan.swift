import Foundation
import PlatformCore

extension EventHeader {
    /// An envelope's header read by hand, and where its payload's bytes are. Every consumed event is read here, and
    /// Foundation's decoder reading the header (and again, later, the whole envelope for the payload) was a fifth of
    /// a batched consumer's CPU (perf). The envelope must be one object with the six header fields of
    /// their types; other members are skipped, as `JSONDecoder` skips them. A header member or the payload given twice
    /// is refused: `JSONDecoder` would take the first, a hand reader might take the last, and an envelope that reads
    /// two ways must not be applied under either id.
    static func scan(_ bytes: [UInt8]) throws -> (header: EventHeader, payload: Range<Int>?) {
        var scanner = JSONScanner(bytes)
        var id: UUID?
        var type: EventType?
        var schemaVersion: Int?
        var occurredAt: Date?
        var producer: String?
        var key: String?
        var payload: Range<Int>?
        var seen: Set<String> = []
        try scanner.beginObject()
        while let name = try scanner.nextKey() {
            if Self.members.contains(name) {
                guard seen.insert(name).inserted else { throw Missing("\(name) once, not twice") }
            }
            switch name {
            case "id":
                let text = try scanner.string()
                guard let parsed = UUIDText.parse(text) ?? UUID(uuidString: text) else { throw Missing("id as a UUID, not \(text.prefix(64))") }
                id = parsed
            case "type": type = EventType(try scanner.string())
            case "schemaVersion": schemaVersion = try scanner.integer()
            case "occurredAt":
                let text = try scanner.string()
                guard let date = EventCoding.date(from: text) else { throw Missing("occurredAt as an ISO 8601 date, not \(text.prefix(64))") }
                occurredAt = date
            case "producer": producer = try scanner.string()
            case "key": key = try scanner.string()
            case "payload":
                _ = scanner.peek()
                let start = scanner.offset
                try scanner.skipValue()
                payload = start..<scanner.offset
            default: try scanner.skipValue()
            }
        }
        guard scanner.isAtEnd else { throw Missing("nothing after the envelope") }
        guard let id else { throw Missing("id") }
        guard let type else { throw Missing("type") }
        guard let schemaVersion else { throw Missing("schemaVersion") }
        guard let occurredAt else { throw Missing("occurredAt") }
        guard let producer else { throw Missing("producer") }
        guard let key else { throw Missing("key") }
        let header = EventHeader(id: id, type: type, schemaVersion: schemaVersion, occurredAt: occurredAt, producer: producer, key: key)
        return (header, payload)
    }

    /// The members read here; others are skipped.
    private static let members: Set<String> = ["id", "type", "schemaVersion", "occurredAt", "producer", "key", "payload"]

    /// A header field absent or not of its type.
    struct Missing: Error, CustomStringConvertible {
        let expected: String
        init(_ expected: String) { self.expected = expected }
        var description: String { "expected \(expected)" }
    }
}
