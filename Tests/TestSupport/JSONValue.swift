import Foundation

/// Loose access into decoded JSON: `json["city"]["name"].string`. The tests' one JSON reader.
public struct JSONValue {
    public let raw: Any?
    public init(_ raw: Any?) { self.raw = raw }

    /// A response body: its JSON, or the text itself when it is not JSON.
    public init(parsing text: String) {
        raw = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) ?? text
    }

    public subscript(key: String) -> JSONValue { JSONValue((raw as? [String: Any])?[key]) }
    public subscript(index: Int) -> JSONValue {
        guard let array = raw as? [Any], array.indices.contains(index) else { return JSONValue(nil) }
        return JSONValue(array[index])
    }
    public var string: String? { raw as? String }
    public var int: Int? { (raw as? NSNumber)?.intValue }
    public var double: Double? { (raw as? NSNumber)?.doubleValue }
    public var bool: Bool? { (raw as? NSNumber).map(\.boolValue) }
    public var array: [JSONValue] { ((raw as? [Any]) ?? []).map(JSONValue.init) }
    public var count: Int { (raw as? [Any])?.count ?? 0 }

    /// The value at a dotted path (`error.details.attemptsLeft`, `accounts.0.email`) as text: a string as it is, a
    /// number or boolean as JSONSerialization prints it; nil for a missing value or an object or array.
    public func text(at path: String) -> String? {
        var current = self
        for part in path.split(separator: ".") {
            if let index = Int(part), current.raw is [Any] { current = current[index] } else { current = current[String(part)] }
        }
        guard let leaf = current.raw, !(leaf is [Any]), !(leaf is [String: Any]), !(leaf is NSNull) else { return nil }
        return "\(leaf)"
    }
}

// What JSONSerialization returns is immutable (dictionaries, arrays, strings, numbers), so sharing it is safe.
extension JSONValue: @unchecked Sendable {}
