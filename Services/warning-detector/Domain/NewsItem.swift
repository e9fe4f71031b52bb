import Foundation

/// A published weather news item (A6).
package struct NewsItem: Sendable, Equatable {
    package var id: UUID
    package var name: String
    package var body: String
    package var happenedAt: Date
    package var timeZone: String
    package var location: String
    package var publishedAt: Date

    package init(id: UUID, name: String, body: String, happenedAt: Date, timeZone: String, location: String, publishedAt: Date) {
        self.id = id
        self.name = name
        self.body = body
        self.happenedAt = happenedAt
        self.timeZone = timeZone
        self.location = location
        self.publishedAt = publishedAt
    }
}
