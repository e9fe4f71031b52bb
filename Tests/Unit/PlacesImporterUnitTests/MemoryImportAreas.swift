import Foundation
import Synchronization

@testable import PlacesImporter

/// Import areas kept in memory, with the rules Postgres keeps for `ImportAreaStore`: one area per name (a second
/// save moves it), the on-demand tile's name deduplicating requests, and the hourly on-demand limits for everyone
/// and per user.
final class MemoryImportAreas: ImportAreaRegistry, ImportRunProgress, OnDemandAreas {
    struct Row: Sendable {
        var status: ImportAreaStatus
        var due: Bool
        var onDemand = false
        var requestedBy: String?
        var touches = 0
    }

    private let rows = Mutex<[Row]>([])
    /// Each progress report: tiles done of the total, and the run's outcome so far.
    let reported = Mutex<[(tilesDone: Int, tilesTotal: Int, outcome: UpsertOutcome)]>([])
    /// Thrown by the next on-demand request.
    let failRequests = Mutex<(any Error)?>(nil)
    let requests = Mutex(0)

    var all: [Row] { rows.withLock { $0 } }

    // MARK: ImportAreaRegistry

    func upsert(name: String, box: GeoBox, placesOfWorship: Bool, runNow: Bool) async throws -> UUID {
        rows.withLock { rows in
            if let index = rows.firstIndex(where: { $0.status.area.name == name }) {
                rows[index].status.area.box = box
                rows[index].status.area.placesOfWorship = placesOfWorship
                rows[index].due = rows[index].due || runNow
                return rows[index].status.area.id
            }
            let area = ImportArea(id: UUID(), name: name, box: box, placesOfWorship: placesOfWorship)
            rows.append(Row(status: Self.status(area), due: runNow))
            return area.id
        }
    }

    func runNow(_ id: UUID) async throws -> Bool {
        rows.withLock { rows in
            guard let index = rows.firstIndex(where: { $0.status.area.id == id }) else { return false }
            rows[index].due = true
            return true
        }
    }

    func list() async throws -> [ImportAreaStatus] {
        rows.withLock { $0.map(\.status).sorted { $0.area.name < $1.area.name } }
    }

    // MARK: ImportRunProgress

    func progress(_ id: UUID, outcome: UpsertOutcome, tilesDone: Int, tilesTotal: Int) async throws {
        reported.withLock { $0.append((tilesDone, tilesTotal, outcome)) }
    }

    // MARK: OnDemandAreas

    /// Every on-demand area counts as asked for within the hour.
    func requestOnDemand(
        _ tile: OnDemandTile, user: String, perHour: Int, perUserPerHour: Int
    ) async throws
        -> OnDemandRequest
    {
        requests.withLock { $0 += 1 }
        if let failure = failRequests.withLock({ $0 }) { throw failure }
        return rows.withLock { rows in
            if rows.contains(where: { $0.status.area.name == tile.areaName }) { return .alreadyQueued }
            let onDemand = rows.filter(\.onDemand)
            if onDemand.count >= perHour { return .refusedForEveryone }
            if onDemand.count(where: { $0.requestedBy == user }) >= perUserPerHour { return .refusedForUser }
            let area = ImportArea(id: UUID(), name: tile.areaName, box: tile.box)
            rows.append(Row(status: Self.status(area), due: true, onDemand: true, requestedBy: user))
            return .queued
        }
    }

    func touchOnDemand(_ tile: OnDemandTile) async throws {
        rows.withLock { rows in
            for index in rows.indices where rows[index].onDemand && rows[index].status.area.name == tile.areaName {
                rows[index].touches += 1
            }
        }
    }

    func coverage() async throws -> [ImportCoverage.Area] {
        rows.withLock { $0.map { ImportCoverage.Area(box: $0.status.area.box, onDemand: $0.onDemand, imported: $0.status.lastFinishedAt != nil) } }
    }

    private static func status(_ area: ImportArea) -> ImportAreaStatus {
        ImportAreaStatus(
            area: area, nextRunAt: Date(), lastStartedAt: nil, lastFinishedAt: nil, lastStatus: nil, lastError: nil, created: 0, changed: 0,
            unchanged: 0, tilesDone: 0, tilesTotal: 0)
    }
}
