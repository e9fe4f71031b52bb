import Foundation
import Logging
import PlatformCore
import PlatformHTTP
import ServiceLifecycle

/// Runs due area imports (P1): configured areas at start, then whichever area is due, one at a time per
/// instance; claims keep instances from importing the same area together.
struct ImportScheduler: Service {
    let importer: AreaImporter
    let areas: ImportAreaStore
    /// Answers the requests for places of worship that waited for an area (B4).
    let worshipRequests: WorshipAreaRequests
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
            if Task.isCancelled {
                await release(area)
                return true
            }
            try await areas.finish(area.id, error: error, nextRunIn: interval)
            // A failed run answers nothing: the request is asked again and runs the area again.
            if error == nil, area.placesOfWorship { try await worshipRequests.answer(areaName: area.name) }
            return true
        } catch {
            if !Task.isCancelled {
                logger.warning("import scheduling failed", metadata: ["error": "\(String(reflecting: error))"])
            }
            return false
        }
    }

    /// Shutdown cancels the import: its claim is given back in a task of its own, which that cancellation does not
    /// reach (the database client stops after this service).
    private func release(_ area: ImportArea) async {
        let (areas, logger) = (areas, logger)
        let released = Task.detached { try await areas.release(area.id) }
        do {
            try await released.value
            logger.info("import interrupted by shutdown; area left due", metadata: ["area": "\(area.name)"])
        } catch {
            logger.warning(
                "could not give back an interrupted import's claim", metadata: ["area": "\(area.name)", "error": "\(String(reflecting: error))"])
        }
    }
}
