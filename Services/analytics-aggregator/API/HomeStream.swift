import Foundation
import Hummingbird
import Logging
import PlatformHTTP
import ServiceLifecycle

/// `GET /v1/admin/stream` (N5): the home page's numbers as Server-Sent Events, sent whenever they change
/// (looked at every `STREAM_INTERVAL_MS`), so the dashboard shows an ingested event within about two seconds
/// whichever instance aggregated it. A comment line every 15 s keeps proxies from closing a quiet stream;
/// a stream ends after 10 minutes or when the caller's token expires, whichever comes first (the page
/// reconnects with a fresh token), and when the service shuts down. Only admins may open one: the handler
/// checks the role itself rather than trusting a path rule in front of it. Every stream of the
/// process reads the same `HomeSnapshot`, so open dashboards cost one set of queries per interval.
struct HomeStream: Sendable {
    let snapshot: HomeSnapshot
    let interval: Duration
    let logger: Logger

    init(stats: StatsQueries, interval: Duration, logger: Logger) {
        snapshot = HomeSnapshot(stats: stats, maxAge: interval)
        self.interval = interval
        self.logger = logger
    }

    static let keepAlive = Duration.seconds(15)
    static let lifetime = Duration.seconds(600)

    /// The stream's lifetime: at most `lifetime`, and never past the token's expiry.
    static func lifetime(until expiry: Date?, now: Date) -> Duration {
        guard let expiry else { return lifetime }
        let left = expiry.timeIntervalSince(now)
        guard left.isFinite, left > 0 else { return .zero }
        return min(lifetime, .milliseconds(Int64(min(left, 600) * 1_000)))
    }

    func add(to group: RouterGroup<PlatformRequestContext>) {
        group.get("v1/admin/stream", use: stream)
    }

    @Sendable func stream(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let user = try context.requireUser()
        guard user.role == .admin else { throw APIError.forbidden }
        let (snapshot, interval, logger) = (self.snapshot, self.interval, self.logger)
        let lifetime = Self.lifetime(until: user.expiresAt, now: Date())
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: .init { writer in
                let clock = ContinuousClock()
                let end = clock.now + lifetime
                var lastSent: Data?
                var lastWrite = clock.now
                do {
                    // Checked each round: a stream must not hold the service's graceful shutdown open.
                    while clock.now < end, !Task.isShuttingDownGracefully, !Task.isCancelled {
                        let home = try await snapshot.body()
                        if home != lastSent {
                            try await writer.write(ByteBuffer(string: "event: home\ndata: \(String(decoding: home, as: UTF8.self))\n\n"))
                            lastSent = home
                            lastWrite = clock.now
                        } else if clock.now - lastWrite >= Self.keepAlive {
                            try await writer.write(ByteBuffer(string: ": still here\n\n"))
                            lastWrite = clock.now
                        }
                        try await Task.sleep(for: interval)
                    }
                } catch is CancellationError {
                    // The client went away or the server is stopping: end the stream quietly.
                } catch {
                    logger.debug("home stream ended", metadata: ["error": "\(error)"])
                }
                try? await writer.finish(nil)
            })
    }
}
