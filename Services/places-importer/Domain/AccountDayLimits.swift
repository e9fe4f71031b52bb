import Foundation

/// What one account may add to what everyone sees in any 24 hours (X3; install accounts are cheap): places rated
/// (`PLACES_RATINGS_PER_ACCOUNT_DAY`, re-rating one of them is free) and places added
/// (`PLACES_ADDED_PER_ACCOUNT_DAY`, each waits for an admin's review).
package struct AccountDayLimits: Sendable, Equatable {
    package var placesRated = 100
    package var placesAdded = 20

    package init(placesRated: Int = 100, placesAdded: Int = 20) {
        self.placesRated = placesRated
        self.placesAdded = placesAdded
    }

    /// The refusal for an account that rated `recent` other places in the last 24 hours; nil when it may rate.
    package func refusalToRate(_ recent: RecentCount) -> PlacesRefusal? {
        recent.count < placesRated ? nil : .tooManyRatings(rated: recent.count, retryAfterSeconds: recent.oldestAgesOutInSeconds)
    }

    /// The refusal for an account that added `recent` places in the last 24 hours; nil when it may add one.
    package func refusalToAdd(_ recent: RecentCount) -> PlacesRefusal? {
        recent.count < placesAdded ? nil : .tooManyPlaces(added: recent.count, retryAfterSeconds: recent.oldestAgesOutInSeconds)
    }
}

/// How many of an account's acts fall in the last 24 hours, and when the oldest of them leaves that window.
package struct RecentCount: Sendable, Equatable {
    package var count: Int
    package var oldestAgesOutInSeconds: Double

    package init(count: Int, oldestAgesOutInSeconds: Double) {
        self.count = count
        self.oldestAgesOutInSeconds = oldestAgesOutInSeconds
    }
}

/// Why a member's or an admin's change to the places was refused; the API names each one's HTTP answer (`HTTPRefusal`).
package enum PlacesRefusal: Error, Equatable {
    case tooManyRatings(rated: Int, retryAfterSeconds: Double)
    case tooManyPlaces(added: Int, retryAfterSeconds: Double)
    /// A place given by its address alone, at an address the lookup does not know.
    case addressNotFound
    /// The address lookup did not answer.
    case lookupUnavailable
    /// The account used its lookups of the hour (`limit`); the next one frees after `retryAfter`.
    case lookupsUsedUp(limit: Int, retryAfter: Duration)
    /// Too many lookups wait for the one running.
    case lookupBusy
    /// A nearby radius beyond the limit (`NearbyLimits`).
    case radiusTooLarge(maxMetres: Int)
    /// A box whose south is not below its north or whose west is not left of its east.
    case invalidBox
    case boxTooLarge(maxDegrees: Double)
    /// An admin's import area whose box cannot be imported (`ImportAreaBox`); `problem` says why.
    case importAreaBox(problem: String)
    /// A place that is no longer (or never was) pending review, as it stands, and the decision asked for.
    case alreadyReviewed(PlaceReview, ReviewDecision)
    /// No place with this id, or one the user may not see (a member's place awaiting review, for anyone else).
    case placeNotFound(UUID)
    /// What others see or share (a rating, a place for review, an address look-up), asked by an account not trusted
    /// with it yet (`AuthenticatedUser.trusted`: a new install account).
    case accountNotTrusted
}
