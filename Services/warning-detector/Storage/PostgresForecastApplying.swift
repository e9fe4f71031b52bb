import Foundation
import Logging
import PlatformEvents
import PostgresNIO

/// `ForecastApplying` on the consumer's connection.
struct PostgresForecastApplying: ForecastApplying {
    let warnings: WarningStore
    let connection: PostgresConnection
    let logger: Logger

    func record(_ forecasts: [ForecastUpdated]) async throws -> Set<Int> {
        try await ForecastStore.record(forecasts, on: connection, logger: logger)
    }

    func apply(_ detections: [CityDetections]) async throws -> WarningChanges {
        try await warnings.apply(detections, on: connection)
    }

    func queuePushes(of warnings: [Warning], traceParents: [Int: String]) async throws -> Int {
        try await PushQueue.enqueue(warnings: warnings, traceParents: traceParents, on: connection, logger: logger)
    }
}
