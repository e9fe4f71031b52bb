import Foundation

/// A news item as an admin wrote it (A6), its texts trimmed and its moment resolved in its time zone: what is
/// published.
package struct NewsDraft: Sendable, Equatable {
    package var name: String
    package var body: String
    package var location: String
    package var timeZone: String
    package var happenedAt: Date

    package init(name: String, body: String, location: String, timeZone: String, happenedAt: Date) {
        self.name = name
        self.body = body
        self.location = location
        self.timeZone = timeZone
        self.happenedAt = happenedAt
    }
}
