import Foundation
import PlatformEvents
import Synchronization

@testable import WarningDetector

/// `ForecastApplying` in memory: the newest forecast time per city, the live warnings by city, the pushes queued.
/// The reconciliation is the service's own (`WarningReconciliation`); what Postgres adds (the row lock per city,
/// the announcement sequence, the outbox, leaving out warnings that ended before the forecast's time) is the
/// integration tests' part: this store keeps every warning it issued live until it is cancelled.
final class MemoryForecastStore: ForecastApplying {
    private struct State {
        var fetchedAt: [Int: Date] = [:]
        var live: [Int: [Warning]] = [:]
        var nextNumber = 1
        var pushed: [Warning] = []
        var published: [WarningReconciliation.Change] = []
    }

    private let state = Mutex(State())

    var live: [Warning] { state.withLock { $0.live.values.flatMap { $0 } } }
    var pushed: [Warning] { state.withLock { $0.pushed } }
    var published: [WarningReconciliation.Change] { state.withLock { $0.published } }

    func record(_ forecasts: [ForecastUpdated]) async throws -> Set<Int> {
        state.withLock { state in
            var stored: Set<Int> = []
            for forecast in forecasts where (state.fetchedAt[forecast.city.id] ?? .distantPast) < forecast.fetchedAt {
                state.fetchedAt[forecast.city.id] = forecast.fetchedAt
                stored.insert(forecast.city.id)
            }
            return stored
        }
    }

    func apply(_ detections: [CityDetections]) async throws -> WarningChanges {
        state.withLock { state in
            let live = state.live
            let count = WarningReconciliation.issuedCount(detections, live: live)
            let numbers = Array(state.nextNumber..<(state.nextNumber + count))
            state.nextNumber += count
            var changes = WarningChanges()
            for change in WarningReconciliation.changes(detections, live: live, numbers: numbers).joined() {
                state.published.append(change)
                switch change {
                case .issued(let warning):
                    changes.issued.append(warning)
                    state.live[warning.cityId, default: []].append(warning)
                case .updated(let warning):
                    changes.updated.append(warning)
                    state.live[warning.cityId] = state.live[warning.cityId]?.map { $0.id == warning.id ? warning : $0 }
                case .cancelled(let warning):
                    changes.cancelled.append(warning)
                    state.live[warning.cityId]?.removeAll { $0.id == warning.id }
                }
            }
            return changes
        }
    }

    func queuePushes(of warnings: [Warning], traceParents: [Int: String]) async throws -> Int {
        state.withLock { $0.pushed.append(contentsOf: warnings) }
        return warnings.count
    }
}
