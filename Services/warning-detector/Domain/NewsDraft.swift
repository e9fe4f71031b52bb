import Foundation

/// A news item as an admin wrote it (A6), its texts trimmed and its moment resolved in its time zone: what is
/// published.
struct NewsDraft: Sendable, Equatable {
    var name: String
    var body: String
    var location: String
    var timeZone: String
    var happenedAt: Date
}
