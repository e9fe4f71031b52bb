import Logging
import Metrics
import PlatformCore
import ServiceLifecycle

/// Bounds the on-demand tiles (P1, X3): one nobody asked about for `unrequestedFor` is dropped every
/// `interval`, so the scheduler stops importing it again and again. Tiles real users open are marked as asked
/// for (`OnDemandImports`) and stay.
struct OnDemandTileExpiry: Service {
    let areas: ImportAreaStore
    let unrequestedFor: Duration
    let interval: Duration
    let startGate: StartGate
    let logger: Logger

    func run() async throws {
        let expired = Counter(label: "places_on_demand_tiles_expired_total")
        await runPeriodically(startGate: startGate, interval: interval, logger: logger, failure: "on-demand tile expiry failed") {
            let names = try await areas.expireOnDemand(unrequestedFor: unrequestedFor)
            guard !names.isEmpty else { return }
            expired.increment(by: names.count)
            logger.info("on-demand tiles nobody asked about expired", metadata: ["areas": "\(names.joined(separator: "; "))"])
        }
    }
}
