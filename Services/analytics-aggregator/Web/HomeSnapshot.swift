import Foundation

/// The home page's numbers, encoded, shared by every live stream of this process: one set of queries per
/// interval however many dashboards are open (each stream used to run its own every half second).
actor HomeSnapshot {
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
        if let inFlight { return try await inFlight.value }
        let stats = self.stats
        let task = Task {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(try await stats.home())
        }
        inFlight = task
        defer { inFlight = nil }
        let body = try await task.value
        latest = (body, .now)
        return body
    }
}
