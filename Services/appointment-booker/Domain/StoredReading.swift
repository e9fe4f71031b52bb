import Foundation

/// A reading as kept in a user's history (B4): shared by `shareId` without a token until its link expires.
package struct StoredReading: Sendable {
    package var id: UUID
    package var shareId: String
    package var reading: Reading
    package var createdAt: Date

    package init(id: UUID, shareId: String, reading: Reading, createdAt: Date) {
        self.id = id
        self.shareId = shareId
        self.reading = reading
        self.createdAt = createdAt
    }
}

/// A user's readings of the last 24 hours reached `READINGS_PER_ACCOUNT_DAY`: nothing more is kept until the
/// oldest of them leaves the window.
package struct TooManyReadings: Error, Equatable {
    package var limit: Int
    /// When the oldest of them leaves the window.
    package var retryAfterSeconds: Double

    package init(limit: Int, retryAfterSeconds: Double) {
        self.limit = limit
        self.retryAfterSeconds = retryAfterSeconds
    }
}
