import Foundation

/// All users' ratings of a place: how many, the mean of each score, and how often each menu option and
/// business type was chosen.
package struct PlaceRatingAggregate: Sendable, Equatable {
    package var count: Int
    package var averages: [String: Double]
    package var menuOptions: [String: Int]
    package var businessTypes: [String: Int]

    package init(count: Int, averages: [String: Double], menuOptions: [String: Int], businessTypes: [String: Int]) {
        self.count = count
        self.averages = averages
        self.menuOptions = menuOptions
        self.businessTypes = businessTypes
    }
}
