import Foundation
import OpenAPIRuntime

/// Request and response dates (`format: date-time`) as RFC 3339 allows them: with or without fractional
/// seconds, any offset. The generator's default reads only whole seconds, so a client sending milliseconds
/// (as JavaScript's `toISOString` does) got a 400 for a valid date. Dates are written in UTC, whole seconds.
public struct RFC3339DateTranscoder: DateTranscoder {
    public init() {}

    public func encode(_ date: Date) throws -> String {
        Self.formatter(fractional: false).string(from: date)
    }

    public func decode(_ text: String) throws -> Date {
        guard let date = Self.formatter(fractional: false).date(from: text) ?? Self.formatter(fractional: true).date(from: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(text) is not an RFC 3339 date-time"))
        }
        return date
    }

    /// A new formatter per call: ISO8601DateFormatter is not Sendable, and dates are few per request.
    static func formatter(fractional: Bool) -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = fractional ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter
    }
}
