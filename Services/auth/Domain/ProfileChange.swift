import Foundation

/// What the signed-in user changes on their own profile (issue 29): each field nil when it stays as it is.
struct ProfileChange: Sendable, Equatable {
    /// Trimmed by the route; a name of only spaces is no name.
    var displayName: String?
    var language: String?
    var timeZone: String?
    var zodiacSign: String?

    enum Refusal: Error, Equatable {
        case blankDisplayName
        case unknownTimeZone
    }

    /// The first rule the change breaks, nil when it may be saved.
    var refusal: Refusal? {
        if let displayName, displayName.isEmpty { return .blankDisplayName }
        if let timeZone, !Self.isTimeZone(timeZone) { return .unknownTimeZone }
        return nil
    }

    /// An IANA identifier Foundation knows (Asia/Bangkok), of the length the column was made for.
    static func isTimeZone(_ identifier: String) -> Bool {
        identifier.count <= 64 && TimeZone(identifier: identifier) != nil
    }
}
