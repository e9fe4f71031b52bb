import Foundation

/// What became of a request to import the tile around a user.
package enum OnDemandRequest: Sendable, Equatable {
    /// A new area, due now.
    case queued
    /// Another request (from any instance) queued it already.
    case alreadyQueued
    /// Over this user's hourly limit.
    case refusedForUser
    /// Over the hourly limit for everyone.
    case refusedForEveryone
}
