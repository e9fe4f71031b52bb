import Logging
import PlatformCore
import ServiceLifecycle

/// Reads the import areas into the coverage every few seconds (and once the service has migrated).
struct ImportCoverageService: Service {
    let coverage: ImportCoverage
    let areas: any OnDemandAreas
    let interval: Duration
    let startGate: StartGate
    let logger: Logger

    func run() async throws {
        await runPeriodically(startGate: startGate, interval: interval, logger: logger, failure: "import coverage refresh failed") {
            coverage.load(try await areas.coverage())
        }
    }
}
