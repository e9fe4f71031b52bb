import Foundation
import Logging
import ServiceLifecycle
import Shared

/// Runs due area imports (P1): configured areas at start, then whichever area is due, one at a time per
/// instance; claims keep instances from importing the same area together.
struct ImportScheduler: Service {
    let importer: AreaImporter
    let areas: ImportAreaStore
    let configuredAreas: [PlacesConfiguration.ConfiguredArea]
    let interval: Duration
    let tick: Duration
    let startGate: StartGate
    let logger: Logger

    func run() async throws {
        guard await startGate.waitUnlessShuttingDown() else { return }
        for area in configuredAreas {
            do {
                try await areas.upsert(name: area.name, box: area.box, placesOfWorship: area.placesOfWorship, runNow: false)
            } catch {
                logger.error("could not register import area", metadata: ["area": "\(area.name)", "error": "\(String(reflecting: error))"])
            }
        }
        await runPeriodically(startGate: startGate, interval: tick) { await runOnce() }
    }

    /// Imports one due area; false when none was due.
    @discardableResult
    func runOnce() async -> Bool {
        do {
            guard let area = try await areas.claimDue(claimFor: .seconds(3_600)) else { return false }
            let (_, error) = await importer.importArea(area)
            if Task.isCancelled { return true }
            try await areas.finish(area.id, error: error, nextRunIn: interval)
            return true
        } catch {
            if !Task.isCancelled {
                logger.warning("import scheduling failed", metadata: ["error": "\(String(reflecting: error))"])
            }
            return false
        }
    }
}
