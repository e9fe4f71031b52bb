import Logging
import ServiceLifecycle

/// Writes the recent city views noted by `RecentViewsRecorder` (W7) every `interval`, and what is left when the
/// application stops gracefully. The service group stops its services in reverse order, so the HTTP server, which
/// notes views, has stopped before this writes the last of them, and the Postgres client stops after.
struct RecentViewsFlush: Service {
    let recorder: RecentViewsRecorder
    let interval: Duration

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { break }
                await recorder.flushLogging()
            }
        }
        // A flush cut short by the shutdown put its views back: this writes them too.
        await recorder.flushLogging()
    }
}
