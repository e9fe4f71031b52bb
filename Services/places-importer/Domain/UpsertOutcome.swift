import Foundation

/// How many places an import batch inserted, changed and left as they were (P1).
package struct UpsertOutcome: Sendable, Equatable {
    package var created = 0
    package var changed = 0
    package var unchanged = 0

    package init(created: Int = 0, changed: Int = 0, unchanged: Int = 0) {
        self.created = created
        self.changed = changed
        self.unchanged = unchanged
    }

    package static func += (lhs: inout UpsertOutcome, rhs: UpsertOutcome) {
        lhs.created += rhs.created
        lhs.changed += rhs.changed
        lhs.unchanged += rhs.unchanged
    }
}
