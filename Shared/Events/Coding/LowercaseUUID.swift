import Foundation

/// A UUID in an event payload, written in lower case as tokens' `sub`, every HTTP answer and every event key spell
/// ids (`AccountKey`): Foundation writes `UUID` in upper case, and a consumer or an app that compares ids as text
/// would not match its own account. Reading accepts either case, so events written before still decode.
@propertyWrapper
public struct LowercaseUUID: Codable, Sendable, Hashable {
    public var wrappedValue: UUID

    public init(wrappedValue: UUID) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(UUID.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue.uuidString.lowercased())
    }
}
