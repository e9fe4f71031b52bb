import Foundation

/// One user's rating of a place (P3): five scores from 0 to 5, menu options and business type from fixed
/// lists, and notes.
package struct Rating: Sendable, Equatable, Codable {
    package var noise: Int
    package var outlets: Int
    package var wifi: Int
    package var cost: Int
    package var seating: Int
    package var menuOptions: [String]
    package var businessType: String
    package var notes: String

    package init(noise: Int, outlets: Int, wifi: Int, cost: Int, seating: Int, menuOptions: [String], businessType: String, notes: String) {
        self.noise = noise
        self.outlets = outlets
        self.wifi = wifi
        self.cost = cost
        self.seating = seating
        self.menuOptions = menuOptions
        self.businessType = businessType
        self.notes = notes
    }

    /// The seed's menu options ("coffee and drinks only, light snacks, lunch, full menu").
    package static let menuOptionChoices = ["drinks-only", "light-snacks", "lunch", "full-menu"]
    /// The seed's business types ("library, coffee shop, bar, etc").
    package static let businessTypeChoices = ["coworking", "coffee-shop", "library", "bar", "restaurant", "other"]
    package static let maxNotesLength = 1_000
    package static let scoreNames = ["noise", "outlets", "wifi", "cost", "seating"]
}

/// The predefined pin colours a user may give a place (P2).
package enum PinColour: String, CaseIterable, Sendable {
    case green, purple, orange, yellow, black
    /// Not choosable: the system's colours for a place the user has not touched (red) or has (blue).
    package static let untouched = "red"
    package static let touched = "blue"
}
