import Foundation

/// What rating and adding a place need from storage: `UserPlaceStore` in Postgres, a memory one in the unit tests.
/// Each runs in one transaction in which the account's acts are counted one after another: `check` sees the
/// count and may throw, and then nothing is written.
package protocol UserPlaceRepository: Sendable {
    /// Stores (or replaces) the user's rating after `check` accepted how many *other* places the user rated in
    /// the last 24 hours; returns the place's new aggregate.
    func rate(
        placeId: UUID, user: String, rating: Rating, check: @Sendable (RecentCount) throws -> Void
    ) async throws -> PlaceRatingAggregate

    /// Adds the user's place (pending review, saved by them, with its optional rating and pin colour) after
    /// `check` accepted how many places the user added in the last 24 hours; returns its id.
    func add(
        _ candidate: PlaceCandidate, user: String, rating: Rating?, colour: PinColour?, check: @Sendable (RecentCount) throws -> Void
    ) async throws -> UUID
}

/// A user's pin colours and saves (P2): `UserPlaceStore` in Postgres, a memory one in the unit tests.
package protocol PlaceMarks: Sendable {
    /// Gives the place the user's colour, or with nil takes their colour away.
    func setPin(placeId: UUID, user: String, colour: PinColour?) async throws

    func setSaved(placeId: UUID, user: String, saved: Bool) async throws

    /// The user's pin for the place as it is now (`UserPins.pin`).
    func pin(placeId: UUID, user: String) async throws -> String
}

/// What the nearby lists read from Postgres (P2): the places with the user's pins when the in-memory index is off
/// or still loading, and the user's pins for the index.
package protocol NearbyPlaceReads: Sendable {
    /// Places within `radiusMetres` of a point the user may see, nearest first.
    func near(
        latitude: Double, longitude: Double, radiusMetres: Double, user: String, limit: Int, offset: Int
    ) async throws
        -> [PinnedPlace]

    /// Places inside a box the user may see, by folded name, then id.
    func inBox(_ box: GeoBox, user: String, limit: Int, offset: Int) async throws -> [PinnedPlace]

    /// Everything that decides the user's pins.
    func pins(user: String) async throws -> UserPins
}
