import Foundation

/// Loose access into decoded JSON: `json["city"]["name"].string`.
public struct JSONValue {
    public let raw: Any?
    public init(_ raw: Any?) { self.raw = raw }
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
}
