import Logging
import ServiceLifecycle
import Shared

/// Loads the nearby index once the service has migrated, then keeps reading the change feed, which brings
/// other instances' writes (P2).
struct PlaceIndexService: Service {
    let index: PlaceIndex
    let interval: Duration
    let startGate: StartGate
    let logger: Logger

    func run() async throws {
        guard await startGate.waitUnlessShuttingDown() else { return }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await index.refresh()
                } catch {
                    if !Task.isCancelled {
                        logger.warning("place index refresh failed", metadata: ["error": "\(String(reflecting: error))"])
                    }
                }
                try? await Task.sleep(for: interval)
            }
        }
        try? await gracefulShutdown()
    }
}
