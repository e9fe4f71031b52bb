import Foundation
import PlatformEvents
import Synchronization

@testable import AnalyticsAggregator

/// The telemetry topic in memory, with what the broker guarantees `TelemetryIngest`: a batch is stored whole,
/// in order, or not at all (`isDown` stands for a broker that does not take it).
final class MemoryTelemetryLog: TelemetryLog {
    struct BrokerDown: Error {}

    private let stored = Mutex<[EventEnvelope<TelemetryRecorded>]>([])
    /// How many batches were handed over, stored or not.
    let appends = Mutex(0)
    let isDown: Bool

    init(isDown: Bool = false) {
        self.isDown = isDown
    }

    var events: [EventEnvelope<TelemetryRecorded>] { stored.withLock { $0 } }

    func append(_ events: [EventEnvelope<TelemetryRecorded>]) async throws {
        appends.withLock { $0 += 1 }
        if isDown { throw BrokerDown() }
        stored.withLock { $0.append(contentsOf: events) }
    }
}
