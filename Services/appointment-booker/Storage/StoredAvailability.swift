import Foundation

/// An availability as the `partners.availability` jsonb holds it: the API's own strings, written only after
/// `AvailabilityRules` accepted them.
struct StoredAvailability: Codable, Sendable {
    struct Window: Codable, Sendable {
        var weekday: Int
        var start: String
        var end: String
    }

    struct Exception: Codable, Sendable {
        var date: String
        var kind: String
        var start: String?
        var end: String?
    }

    var weekly: [Window]
    var exceptions: [Exception]

    init(_ availability: Availability) {
        weekly = availability.weekly.map { Window(weekday: $0.weekday, start: $0.start.description, end: $0.end.description) }
        exceptions = availability.exceptions.map {
            Exception(date: $0.date.description, kind: $0.kind.rawValue, start: $0.start?.description, end: $0.end?.description)
        }
    }

    /// The domain value; an empty availability for a stored value that no longer parses (never written so).
    var availability: Availability {
        let parsed = AvailabilityRules.parse(
            weekly: weekly.map { ($0.weekday, $0.start, $0.end) },
            exceptions: exceptions.map { ($0.date, Availability.Exception.Kind(rawValue: $0.kind) ?? .off, $0.start, $0.end) })
        return (try? parsed.get()) ?? .empty
    }

    func json() throws -> String { String(decoding: try JSONEncoder().encode(self), as: UTF8.self) }

    static func decode(_ json: String) -> Availability {
        (try? JSONDecoder().decode(StoredAvailability.self, from: Data(json.utf8)))?.availability ?? .empty
    }
}
