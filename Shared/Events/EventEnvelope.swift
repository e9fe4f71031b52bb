import Foundation
import PlatformCore

/// The one shape of every event on every topic. The payload is the event type's own Codable struct; the
/// rest lets any consumer route, deduplicate and trace an event without knowing its payload.
public struct EventEnvelope<Payload: Codable & Sendable>: Codable, Sendable {
    /// Unique per event; consumers record it to apply each event once.
    public var id: UUID
    public var type: EventType
    /// Version of the payload's schema, raised on incompatible changes.
    public var schemaVersion: Int
    public var occurredAt: Date
    /// The service that produced the event.
    public var producer: String
    /// The partition key: events with one key stay in order.
    public var key: String
    public var payload: Payload

    public init(
        id: UUID = UUID(), type: EventType, schemaVersion: Int = 1, occurredAt: Date = Date(), producer: String,
        key: String, payload: Payload
    ) {
        self.id = id
        self.type = type
        self.schemaVersion = schemaVersion
        self.occurredAt = occurredAt
        self.producer = producer
        self.key = key
        self.payload = payload
    }

    /// The JSON bytes written to Kafka.
    public func encoded() throws -> [UInt8] {
        if let payload = payload as? any HandWrittenJSONPayload { return try handWritten(payload) }
        return Array(try EventCoding.encoder.encode(self))
    }
}

/// The envelope without its payload: enough to deduplicate and route an event whose payload is not decoded yet.
public struct EventHeader: Codable, Sendable, Equatable {
    public var id: UUID
    public var type: EventType
    public var schemaVersion: Int
    public var occurredAt: Date
    public var producer: String
    public var key: String

    enum CodingKeys: String, CodingKey {
        case id, type, schemaVersion, occurredAt, producer, key
    }

    init(id: UUID, type: EventType, schemaVersion: Int, occurredAt: Date, producer: String, key: String) {
        self.id = id
        self.type = type
        self.schemaVersion = schemaVersion
        self.occurredAt = occurredAt
        self.producer = producer
        self.key = key
    }

    /// Decoded by hand only for the id: every consumed event's header is read, and Foundation's UUID parsing
    /// (`sscanf`) was its largest cost.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let idText = try container.decode(String.self, forKey: .id)
        guard let id = UUIDText.parse(idText) ?? UUID(uuidString: idText) else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "not a UUID: \(idText.prefix(64))")
        }
        self.id = id
        type = try container.decode(EventType.self, forKey: .type)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        occurredAt = try container.decode(Date.self, forKey: .occurredAt)
        producer = try container.decode(String.self, forKey: .producer)
        key = try container.decode(String.self, forKey: .key)
    }
}

/// A consumed event: its header decoded, its payload still raw until a handler asks for its type.
public struct ReceivedEvent: Sendable {
    public let header: EventHeader
    public let bytes: [UInt8]
    /// The W3C `traceparent` the producer sent with it (the Kafka header), to continue the producer's trace.
    public let traceParent: String?
    /// Its place in the log, set by the consumer that read it.
    public var position: LogPosition?
    /// Where the payload's JSON is in `bytes` (nil when the envelope has none): a handler asking for the payload
    /// has the header already, so only the payload is decoded then.
    private let payloadBytes: Range<Int>?

    /// Reads the envelope header; a message that is not an envelope is a poison message.
    public init(bytes: [UInt8], traceParent: String? = nil) throws(EventDecodingError) {
        do {
            (header, payloadBytes) = try EventHeader.scan(bytes)
        } catch {
            throw EventDecodingError(reason: "not an event envelope: \(error)")
        }
        try EventDecodingError.checkStorable(header.occurredAt, field: "occurredAt")
        self.bytes = bytes
        self.traceParent = traceParent
    }

    /// Decodes the payload as `Payload`; throws a permanent error when it does not fit.
    public func payload<Payload: Codable & Sendable>(as type: Payload.Type) throws(EventDecodingError) -> Payload {
        do {
            guard let payloadBytes else { throw EventHeader.Missing("a payload") }
            return try EventCoding.sharedDecoder.decode(Payload.self, from: Data(bytes[payloadBytes]))
        } catch {
            throw EventDecodingError(reason: "payload of \(header.type.rawValue) is not a \(Payload.self): \(error)")
        }
    }
}

/// An event that can never be handled as it is: it goes to the dead-letter topic at once, without retries.
public struct EventDecodingError: Error, CustomStringConvertible, Sendable, PermanentEventError {
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}

extension EventDecodingError {
    /// Dates Postgres and the platform can hold: 1970 to 2200. PostgresNIO traps binding a date past the
    /// year 294276, and an ISO 8601 text can name one; an event carrying such a date is permanent, not a crash.
    public static let storableDates = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 7_258_118_400)

    public static func checkStorable(_ date: Date, field: String) throws(EventDecodingError) {
        guard storableDates.contains(date) else {
            throw EventDecodingError(reason: "\(field) \(date) is outside 1970...2200")
        }
    }
}

/// Errors of this kind skip retries and send the event to the dead-letter topic.
public protocol PermanentEventError: Error {}

/// Shared JSON settings, so every producer and consumer agrees on dates.
public enum EventCoding {
    // Built once: a format style per date made every event with many dates slow to write and read.
    private static let fractionalStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let wholeSecondStyle = Date.ISO8601FormatStyle()

    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(fractionalStyle))
        }
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// One decoder for the consumer's hot path (a `JSONDecoder` is safe to share while nobody changes its
    /// settings); `decoder` still hands out fresh ones to callers that might.
    static let sharedDecoder = decoder

    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = date(from: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 date: \(text)"))
            }
            return date
        }
        return decoder
    }

    /// An envelope's date: ISO 8601 with or without fractional seconds.
    static func date(from text: String) -> Date? {
        if let date = ISO8601Fast.parse(text) { return date }
        if let date = try? fractionalStyle.parse(text) { return date }
        return try? wholeSecondStyle.parse(text)
    }
}
