/// An admin's decision on a member-added place (X3, P4).
package enum ReviewDecision: String, Sendable, CaseIterable {
    case approve, reject

    /// Where the place stands once decided.
    package var outcome: PlaceReview { self == .approve ? .approved : .rejected }
}

/// Where a place stands with the admins: what a decision on it is judged by.
package struct ReviewStanding: Sendable, Equatable {
    package var review: PlaceReview
    /// Nil for an imported place.
    package var addedBy: String?

    package init(review: PlaceReview, addedBy: String? = nil) {
        self.review = review
        self.addedBy = addedBy
    }
}

/// Who may decide what in the admins' review (X3, P4).
package enum PlaceReviewRules {
    /// Only a pending place a member added can be decided: an approved or rejected one was decided already, and an
    /// imported one needs no review.
    package static func canBeDecided(_ standing: ReviewStanding) -> Bool {
        standing.review == .pending && standing.addedBy != nil
    }

    /// Throws `PlacesRefusal.alreadyReviewed` unless the place, as it stands, can be decided.
    package static func check(_ standing: ReviewStanding, decision: ReviewDecision) throws(PlacesRefusal) {
        guard canBeDecided(standing) else { throw .alreadyReviewed(standing.review, decision) }
    }
}
