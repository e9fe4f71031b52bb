import Foundation

/// A user's pin colour or save on a place they may see (P2): the place then shows their pin in every list.
package struct MarkPlace: Sendable {
    package enum Mark: Sendable, Equatable {
        /// The user's colour; nil takes it away.
        case colour(PinColour?)
        case saved(Bool)
    }

    package let places: any PlaceCatalogue
    package let marks: any PlaceMarks
    /// Runs after a change with the user: their next nearby list shows it.
    package let userChanged: @Sendable (String) -> Void

    package init(places: any PlaceCatalogue, marks: any PlaceMarks, userChanged: @escaping @Sendable (String) -> Void) {
        self.places = places
        self.marks = marks
        self.userChanged = userChanged
    }

    /// The user's pin for the place once marked; nil when there is no place the user may see (`Place.isVisible`),
    /// and then nothing is written.
    package func callAsFunction(_ placeId: UUID, user: String, mark: Mark) async throws -> String? {
        guard let place = try await places.find(placeId), place.isVisible(to: user) else { return nil }
        switch mark {
        case .colour(let colour): try await marks.setPin(placeId: place.id, user: user, colour: colour)
        case .saved(let saved): try await marks.setSaved(placeId: place.id, user: user, saved: saved)
        }
        userChanged(user)
        return try await marks.pin(placeId: place.id, user: user)
    }
}
