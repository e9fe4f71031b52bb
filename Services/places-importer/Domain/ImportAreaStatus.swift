import Foundation

/// An import area with how its runs went (P1).
package struct ImportAreaStatus: Sendable {
    package var area: ImportArea
    package var nextRunAt: Date
    package var lastStartedAt: Date?
    package var lastFinishedAt: Date?
    package var lastStatus: String?
    package var lastError: String?
    package var created: Int
    package var changed: Int
    package var unchanged: Int
    package var tilesDone: Int
    package var tilesTotal: Int

    package init(
        area: ImportArea, nextRunAt: Date, lastStartedAt: Date? = nil, lastFinishedAt: Date? = nil, lastStatus: String? = nil,
        lastError: String? = nil, created: Int, changed: Int, unchanged: Int, tilesDone: Int, tilesTotal: Int
    ) {
        self.area = area
        self.nextRunAt = nextRunAt
        self.lastStartedAt = lastStartedAt
        self.lastFinishedAt = lastFinishedAt
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.created = created
        self.changed = changed
        self.unchanged = unchanged
        self.tilesDone = tilesDone
        self.tilesTotal = tilesTotal
    }
}
