import Foundation

/// What presenting a refresh token did (U7): rotated, refused, or caught as a reused one.
package enum RefreshOutcome: Sendable, Equatable {
    case rotated(accountId: UUID, newToken: String)
    case invalid
    case reused
}
