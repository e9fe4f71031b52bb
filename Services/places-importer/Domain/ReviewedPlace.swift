import Foundation

/// A place with who added it and when, as the admin reviews it.
package struct ReviewedPlace: Sendable, Equatable {
    package var place: Place
    package var addedBy: String
    package var addedAt: Date

    package init(place: Place, addedBy: String, addedAt: Date) {
        self.place = place
        self.addedBy = addedBy
        self.addedAt = addedAt
    }
}
