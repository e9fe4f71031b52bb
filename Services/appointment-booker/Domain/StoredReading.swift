import Foundation

/// A reading as kept in a user's history (B4): shared by `shareId` without a token until its link expires.
struct StoredReading: Sendable {
    var id: UUID
    var shareId: String
    var reading: Reading
    var createdAt: Date
}

/// A user's readings of the last 24 hours reached `READINGS_PER_ACCOUNT_DAY`: nothing more is kept until the
/// oldest of them leaves the window.
struct TooManyReadings: Error, Equatable {
    var limit: Int
    /// When the oldest of them leaves the window.
    var retryAfterSeconds: Double
}
