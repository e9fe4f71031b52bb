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
        await runPeriodically(startGate: startGate, interval: interval) {
            do {
                try await index.refresh()
            } catch {
                if !Task.isCancelled {
                    logger.warning("place index refresh failed", metadata: ["error": "\(String(reflecting: error))"])
                }
            }
            return false
        }
    }
}
