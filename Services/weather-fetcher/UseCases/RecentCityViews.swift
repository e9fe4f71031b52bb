import Foundation

/// What the recents (W7) need from storage: `UserCityStore` in Postgres, a memory one in the unit tests.
package protocol RecentCityViews: Sendable {
    /// Writes several users' views at once (`RecentViewsRecorder`'s flush): each user's cities move to the top of their
    /// recents in the order they were viewed, and the recents keep the newest few. A user whose only view is of their
    /// newest recent city, viewed within a minute before, needs no write (a client reloading one city).
    func recordViews(_ batch: [UserCityViews]) async throws
}
