import Foundation
import PlatformEvents

/// What applying forecasts needs from storage, inside one transaction: Postgres in the service
/// (`PostgresForecastApplying`, on the idempotent consumer's connection), memory in the unit tests.
package protocol ForecastApplying: Sendable {
    /// Stores the newest forecast of each city; returns the cities whose forecast was newer than the stored one
    /// (an older forecast arriving late changes nothing).
    func record(_ forecasts: [ForecastUpdated]) async throws -> Set<Int>
    /// Makes the cities' warnings match their detections (`WarningReconciliation`) and publishes each change.
    func apply(_ detections: [CityDetections]) async throws -> WarningChanges
    /// Queues a push of each warning to the devices whose settings allow it; returns how many.
    func queuePushes(of warnings: [Warning], traceParents: [Int: String]) async throws -> Int
}
