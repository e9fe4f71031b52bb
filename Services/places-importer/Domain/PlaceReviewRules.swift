/// An admin's decision on a member-added place (X3, P4).
enum ReviewDecision: String, Sendable, CaseIterable {
    case approve, reject

    /// Where the place stands once decided.
    var outcome: PlaceReview { self == .approve ? .approved : .rejected }
}

/// Where a place stands with the admins: what a decision on it is judged by.
struct ReviewStanding: Sendable, Equatable {
    var review: PlaceReview
    /// Nil for an imported place.
    var addedBy: String?
}

/// Who may decide what in the admins' review (X3, P4).
enum PlaceReviewRules {
    /// Only a pending place a member added can be decided: an approved or rejected one was decided already, and an
    /// imported one needs no review.
    static func canBeDecided(_ standing: ReviewStanding) -> Bool {
        standing.review == .pending && standing.addedBy != nil
    }

    /// Throws `PlacesRefusal.alreadyReviewed` unless the place, as it stands, can be decided.
    static func check(_ standing: ReviewStanding, decision: ReviewDecision) throws(PlacesRefusal) {
        guard canBeDecided(standing) else { throw .alreadyReviewed(standing.review, decision) }
    }
}
