import Foundation

/// What the admins' review needs from storage (X3, P4): `PlaceReviewStore` in Postgres, a memory one in the unit
/// tests.
package protocol PlaceReviewRepository: Sendable {
    /// Places awaiting review, oldest first.
    func awaiting(limit: Int, offset: Int) async throws -> [ReviewedPlace]

    /// Where the place stands with the admins; nil when there is no such place.
    func standing(of placeId: UUID) async throws -> ReviewStanding?

    /// Decides the place if `PlaceReviewRules` still lets it be decided as it stands at the write (a decision racing
    /// this one may have come first); an approval lists it for everyone. nil when it cannot be decided (any more).
    func decide(_ placeId: UUID, _ decision: ReviewDecision) async throws -> ReviewedPlace?
}
