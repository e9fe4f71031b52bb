import Foundation

/// An admin asks for an area to be imported now rather than at its next scheduled run (P1).
struct RunImportArea: Sendable {
    let areas: any ImportAreaRegistry

    /// False when there is no such area.
    func callAsFunction(_ id: UUID) async throws -> Bool {
        try await areas.runNow(id)
    }
}
