import Foundation
import PlatformCore

/// How old a city's data is and whether the city view calls it stale (W3, W6): stale when the last refresh after
/// it failed (the last known data is shown), or when it is older than the refresh schedule allows.
package struct Freshness: Equatable, Sendable {
    /// Whole minutes since the data was fetched, never below zero.
    package let minutesAgo: Int
    /// Why the data is stale; nil when it is fresh.
    package let staleReason: String?

    package var isStale: Bool { staleReason != nil }

    package init(fetchedAt: Date, failedSince: Date?, now: Date, staleAfter: Duration) {
        let age = now.timeIntervalSince(fetchedAt)
        minutesAgo = max(0, (age / 60).rounded(.towardZero).roundedClampedInt)
        if failedSince != nil {
            staleReason = "the provider did not answer the last refresh; showing the last known data"
        } else if age > staleAfter.seconds {
            staleReason = "the data is older than the refresh schedule allows"
        } else {
            staleReason = nil
        }
    }
}
