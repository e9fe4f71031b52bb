import Foundation

/// What the signed-in user changes on their own profile (U9): each field nil when it stays as it is.
package struct ProfileChange: Sendable, Equatable {
    /// Trimmed by the route; a name of only spaces is no name.
    package var displayName: String?
    package var language: String?
    package var timeZone: String?
    package var zodiacSign: String?

    package init(displayName: String? = nil, language: String? = nil, timeZone: String? = nil, zodiacSign: String? = nil) {
        self.displayName = displayName
        self.language = language
        self.timeZone = timeZone
        self.zodiacSign = zodiacSign
    }

    package enum Refusal: Error, Equatable {
        case blankDisplayName
        case unknownTimeZone
    }

    /// The first rule the change breaks, nil when it may be saved.
    package var refusal: Refusal? {
        if let displayName, displayName.isEmpty { return .blankDisplayName }
        if let timeZone, !Self.isTimeZone(timeZone) { return .unknownTimeZone }
        return nil
    }

    /// An IANA identifier Foundation knows (Asia/Bangkok), of the length the column was made for.
    package static func isTimeZone(_ identifier: String) -> Bool {
        identifier.count <= 64 && TimeZone(identifier: identifier) != nil
    }
}
