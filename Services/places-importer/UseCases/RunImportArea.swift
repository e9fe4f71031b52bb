import Foundation

/// An admin asks for an area to be imported now rather than at its next scheduled run (P1).
package struct RunImportArea: Sendable {
    package let areas: any ImportAreaRegistry

    package init(areas: any ImportAreaRegistry) {
        self.areas = areas
    }

    /// False when there is no such area.
    package func callAsFunction(_ id: UUID) async throws -> Bool {
        try await areas.runNow(id)
    }
}
