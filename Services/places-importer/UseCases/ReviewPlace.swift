import Foundation

/// An admin approves or rejects a member-added place (X3, P4). The rule (`PlaceReviewRules`: only a pending place
/// can be decided) judges the place as read; the store decides it only if it still can, so a decision that lost a
/// race to another admin's is read and judged again instead of overwriting it.
package struct ReviewPlace: Sendable {
    /// A place leaves `pending` once and never returns, so the second read already refuses; more is a store fault.
    package static let attempts = 3

    package let reviews: any PlaceReviewRepository
    /// Runs after a decision: the place is listed (or not) for everyone from the next request on.
    package let placesChanged: @Sendable () async throws -> Void

    package init(reviews: any PlaceReviewRepository, placesChanged: @escaping @Sendable () async throws -> Void) {
        self.reviews = reviews
        self.placesChanged = placesChanged
    }

    /// The decided place; nil when there is no such place. Throws `PlacesRefusal.alreadyReviewed`.
    package func callAsFunction(_ placeId: UUID, _ decision: ReviewDecision) async throws -> ReviewedPlace? {
        var standing = ReviewStanding(review: .pending, addedBy: nil)
        for _ in 0..<Self.attempts {
            guard let current = try await reviews.standing(of: placeId) else { return nil }
            standing = current
            try PlaceReviewRules.check(standing, decision: decision)
            if let decided = try await reviews.decide(placeId, decision) {
                try await placesChanged()
                return decided
            }
        }
        throw PlacesRefusal.alreadyReviewed(standing.review, decision)
    }
}
