import Foundation

/// What rating and adding a place need from storage: `UserPlaceStore` in Postgres, a memory one in the unit tests.
/// Each runs in one transaction in which the account's acts are counted one after another: `check` sees the
/// count and may throw, and then nothing is written.
protocol UserPlaceRepository: Sendable {
    /// Stores (or replaces) the user's rating after `check` accepted how many *other* places the user rated in
    /// the last 24 hours; returns the place's new aggregate.
    func rate(
        placeId: UUID, user: String, rating: Rating, check: @Sendable (RecentCount) throws -> Void
    ) async throws -> UserPlaceStore.Aggregate

    /// Adds the user's place (pending review, saved by them, with its optional rating and pin colour) after
    /// `check` accepted how many places the user added in the last 24 hours; returns its id.
    func add(
        _ candidate: PlaceCandidate, user: String, rating: Rating?, colour: PinColour?, check: @Sendable (RecentCount) throws -> Void
    ) async throws -> UUID
}

extension UserPlaceStore: UserPlaceRepository {}
