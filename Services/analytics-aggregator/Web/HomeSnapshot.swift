import Foundation
import Shared

/// The home page's numbers, encoded, shared by every live stream of this process: one set of queries per
/// interval however many dashboards are open (each stream used to run its own every half second).
///
/// The shared read is an unstructured task, which a stream's cancellation does not reach by itself: it is
/// passed on, and the read is bounded by `readLimit`. A read that never answered (its pool stopped under it
/// while the service was being stopped) kept a stream, and with it the server's shutdown, waiting for good.
actor HomeSnapshot {
    static let readLimit = Duration.seconds(10)

    private let stats: StatsQueries
    private let maxAge: Duration
    private var latest: (body: Data, at: ContinuousClock.Instant)?
    private var inFlight: Task<Data, any Error>?

    init(stats: StatsQueries, maxAge: Duration) {
        self.stats = stats
        self.maxAge = maxAge
    }

    /// The numbers at most `maxAge` old; a caller arriving while they are read waits for that read.
    func body() async throws -> Data {
        if let latest, ContinuousClock.now - latest.at < maxAge { return latest.body }
        if let inFlight { return try await withTaskCancellationHandler { try await inFlight.value } onCancel: { inFlight.cancel() } }
        let stats = self.stats
        let task = Task {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(try await withTimeLimit(Self.readLimit) { try await stats.home() })
        }
        inFlight = task
        defer { inFlight = nil }
        let body = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        latest = (body, .now)
        return body
    }
}
