import Foundation
import PlatformCore
import PlatformHTTP

/// The home page's numbers, encoded, shared by every live stream of this process: one set of queries per
/// interval however many dashboards are open, not one set per stream every half second.
///
/// The shared read is an unstructured task, which no stream's cancellation reaches (nor should one stream's
/// end cancel the read the others wait for), so it is bounded by `readLimit`: a read that never answered (its
/// pool stopped under it while the service was being stopped) kept a stream, and with it the server's shutdown,
/// waiting for good.
actor HomeSnapshot {
    private let stats: StatsQueries
    private let maxAge: Duration
    private var latest: (body: Data, at: ContinuousClock.Instant)?
    private var inFlight: Task<Data, any Error>?

    /// How long one read may take before its waiters get `StepTimeout`.
    private let readLimit: Duration

    init(stats: StatsQueries, maxAge: Duration, readLimit: Duration = .seconds(10)) {
        self.stats = stats
        self.maxAge = maxAge
        self.readLimit = readLimit
    }

    /// The numbers at most `maxAge` old; a caller arriving while they are read waits for that read.
    func body() async throws -> Data {
        if let latest, ContinuousClock.now - latest.at < maxAge { return latest.body }
        if let inFlight { return try await inFlight.value }
        let (stats, readLimit) = (self.stats, self.readLimit)
        let task = Task {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(try await withTimeLimit(readLimit) { try await stats.home() })
        }
        inFlight = task
        defer { inFlight = nil }
        let body = try await task.value
        latest = (body, .now)
        return body
    }
}
