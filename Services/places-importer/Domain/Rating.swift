import Foundation

/// One user's rating of a place (P3): five scores from 0 to 5, menu options and business type from fixed
/// lists, and notes.
struct Rating: Sendable, Equatable, Codable {
    var noise: Int
    var outlets: Int
    var wifi: Int
    var cost: Int
    var seating: Int
    var menuOptions: [String]
    var businessType: String
    var notes: String

    /// The seed's menu options ("coffee and drinks only, light snacks, lunch, full menu").
    static let menuOptionChoices = ["drinks-only", "light-snacks", "lunch", "full-menu"]
    /// The seed's business types ("library, coffee shop, bar, etc").
    static let businessTypeChoices = ["coworking", "coffee-shop", "library", "bar", "restaurant", "other"]
    static let maxNotesLength = 1_000
    static let scoreNames = ["noise", "outlets", "wifi", "cost", "seating"]
}

/// The predefined pin colours a user may give a place (P2).
enum PinColour: String, CaseIterable, Sendable {
    case green, purple, orange, yellow, black
    /// Not choosable: the system's colours for a place the user has not touched (red) or has (blue).
    static let untouched = "red"
    static let touched = "blue"
}
