import Foundation
import Logging
import PlatformEvents
import PostgresNIO

/// What applying forecasts needs from storage, inside one transaction: Postgres in the service
/// (`PostgresForecastApplying`, on the idempotent consumer's connection), memory in the unit tests.
protocol ForecastApplying: Sendable {
    /// Stores the newest forecast of each city; returns the cities whose forecast was newer than the stored one
    /// (an older forecast arriving late changes nothing).
    func record(_ forecasts: [ForecastUpdated]) async throws -> Set<Int>
    /// Makes the cities' warnings match their detections (`WarningReconciliation`) and publishes each change.
    func apply(_ detections: [CityDetections]) async throws -> WarningStore.Changes
    /// Queues a push of each warning to the devices whose settings allow it; returns how many.
    func queuePushes(of warnings: [Warning], traceParents: [Int: String]) async throws -> Int
}

/// `ForecastApplying` on the consumer's connection.
struct PostgresForecastApplying: ForecastApplying {
    let warnings: WarningStore
    let connection: PostgresConnection
    let logger: Logger

    func record(_ forecasts: [ForecastUpdated]) async throws -> Set<Int> {
        try await ForecastStore.record(forecasts, on: connection, logger: logger)
    }

    func apply(_ detections: [CityDetections]) async throws -> WarningStore.Changes {
        try await warnings.apply(detections, on: connection)
    }

    func queuePushes(of warnings: [Warning], traceParents: [Int: String]) async throws -> Int {
        try await PushQueue.enqueue(warnings: warnings, traceParents: traceParents, on: connection, logger: logger)
    }
}
