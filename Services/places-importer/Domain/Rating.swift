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

/// A rating as the client sends it: every field optional so that each missing or bad one can be named.
struct RatingInput: Decodable, Sendable {
    var noise: Int?
    var outlets: Int?
    var wifi: Int?
    var cost: Int?
    var seating: Int?
    var menuOptions: [String]?
    var businessType: String?
    var notes: String?

    /// The rating, or every problem by field name (`noise: must be an integer from 0 to 5`).
    func validated() -> Result<Rating, RatingErrors> {
        var problems: [String: String] = [:]
        let scores = [("noise", noise), ("outlets", outlets), ("wifi", wifi), ("cost", cost), ("seating", seating)]
        for (name, value) in scores {
            guard let value else { problems[name] = "is required (an integer from 0 to 5)"; continue }
            if !(0...5).contains(value) { problems[name] = "must be an integer from 0 to 5" }
        }
        let options = menuOptions ?? []
        if let unknown = options.first(where: { !Rating.menuOptionChoices.contains($0) }) {
            problems["menuOptions"] = "\(unknown) is not one of \(Rating.menuOptionChoices.joined(separator: ", "))"
        } else if Set(options).count != options.count {
            problems["menuOptions"] = "lists an option twice"
        }
        if let type = businessType {
            if !Rating.businessTypeChoices.contains(type) {
                problems["businessType"] = "must be one of \(Rating.businessTypeChoices.joined(separator: ", "))"
            }
        } else {
            problems["businessType"] = "is required (one of \(Rating.businessTypeChoices.joined(separator: ", ")))"
        }
        if (notes ?? "").count > Rating.maxNotesLength {
            problems["notes"] = "must be at most \(Rating.maxNotesLength) characters"
        }
        guard problems.isEmpty else { return .failure(RatingErrors(fields: problems)) }
        return .success(
            Rating(
                noise: noise!, outlets: outlets!, wifi: wifi!, cost: cost!, seating: seating!, menuOptions: options,
                businessType: businessType!, notes: notes ?? ""))
    }
}

struct RatingErrors: Error, Equatable {
    var fields: [String: String]
}

/// The predefined pin colours a user may give a place (P2).
enum PinColour: String, CaseIterable, Sendable {
    case green, purple, orange, yellow, black
    /// Not choosable: the system's colours for a place the user has not touched (red) or has (blue).
    static let untouched = "red"
    static let touched = "blue"
}
