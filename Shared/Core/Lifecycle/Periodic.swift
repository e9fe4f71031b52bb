import Logging
import ServiceLifecycle

/// The loop of a background service (refreshes, imports, sends): once the service has started, run `round`
/// again and again until the graceful shutdown, pausing `interval` after each round that found nothing more
/// waiting (`round` returns true when there may be more right away). It returns only once the shutdown has
/// begun, because a ServiceGroup takes a service that returns for one that finished.
public func runPeriodically(startGate: StartGate, interval: Duration, _ round: @escaping @Sendable () async -> Bool) async {
    guard await startGate.waitUnlessShuttingDown() else { return }
    await cancelWhenGracefulShutdown {
        while !Task.isCancelled {
            if !(await round()) { try? await Task.sleep(for: interval) }
        }
    }
    try? await gracefulShutdown()
}

/// The same loop for a round that does one piece of work and throws when it fails: the failure is logged
/// (not when it comes from the shutdown) and the loop pauses `interval` after every round.
public func runPeriodically(
    startGate: StartGate, interval: Duration, logger: Logger, failure message: Logger.Message,
    _ round: @escaping @Sendable () async throws -> Void
) async {
    await runPeriodically(startGate: startGate, interval: interval) {
        do {
            try await round()
        } catch {
            if !Task.isCancelled { logger.warning(message, metadata: ["error": "\(String(reflecting: error))"]) }
        }
        return false
    }
}
