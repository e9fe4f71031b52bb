import Foundation

/// What applying detections changed (A1, A2): the warnings issued, updated and cancelled.
package struct WarningChanges: Sendable, Equatable {
    package var issued: [Warning] = []
    package var updated: [Warning] = []
    package var cancelled: [Warning] = []

    package init(issued: [Warning] = [], updated: [Warning] = [], cancelled: [Warning] = []) {
        self.issued = issued
        self.updated = updated
        self.cancelled = cancelled
    }
}
