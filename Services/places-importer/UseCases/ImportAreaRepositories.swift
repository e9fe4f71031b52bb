import Foundation

/// The admin's import areas (P1): `ImportAreaStore` in Postgres, a memory one in the unit tests.
package protocol ImportAreaRegistry: Sendable {
    /// Adds an area or moves the one of that name; `runNow` makes it due at once. Returns its id.
    @discardableResult
    func upsert(name: String, box: GeoBox, placesOfWorship: Bool, runNow: Bool) async throws -> UUID

    /// Makes an area due now; false when there is no such area.
    func runNow(_ id: UUID) async throws -> Bool

    /// Every area with its last run, by name.
    func list() async throws -> [ImportAreaStatus]
}

/// Where an import run records how far it got (P1).
package protocol ImportRunProgress: Sendable {
    func progress(_ id: UUID, outcome: UpsertOutcome, tilesDone: Int, tilesTotal: Int) async throws
}

/// The on-demand import areas (P1): tiles queued around users, and every area's box for the coverage.
package protocol OnDemandAreas: Sendable {
    /// Queues the tile as an area of its own unless it is queued already or over the hourly limits.
    func requestOnDemand(
        _ tile: OnDemandTile, user: String, perHour: Int, perUserPerHour: Int
    ) async throws
        -> OnDemandRequest

    /// A user asked for places in the tile again: it is kept.
    func touchOnDemand(_ tile: OnDemandTile) async throws

    /// Every area's box, whether it was asked for on demand, and whether a run of it has finished.
    func coverage() async throws -> [ImportCoverage.Area]
}
