import Logging
import PlatformCore
import ServiceLifecycle

/// Loads the nearby index once the service has migrated, then keeps reading the change feed, which brings
/// other instances' writes (P2).
struct PlaceIndexService: Service {
    let index: PlaceIndex
    let interval: Duration
    let startGate: StartGate
    let logger: Logger

    func run() async throws {
        await runPeriodically(startGate: startGate, interval: interval, logger: logger, failure: "place index refresh failed") {
            try await index.refresh()
        }
    }
}
