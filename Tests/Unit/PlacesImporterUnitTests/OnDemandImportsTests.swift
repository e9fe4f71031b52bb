import Foundation
import Logging
import Testing

@testable import PlacesImporter

/// Places around the user (P1) against import areas in memory: a list where no area was imported queues the tile
/// around it, a queued tile says `importing` and is kept, and a refused user asks no more for a while.
@Suite("places: OnDemandImports")
struct OnDemandImportsTests {
    let areas = MemoryImportAreas()
    let coverage = ImportCoverage(tileDegrees: 0.1)

    func onDemand(perHour: Int = 60, perUserPerHour: Int = 5) -> OnDemandImports {
        OnDemandImports(coverage: coverage, areas: areas, perHour: perHour, perUserPerHour: perUserPerHour, logger: Logger(label: "test"))
    }

    @Test("P1: before the coverage is read nothing is asked for")
    func unknownCoverage() async {
        #expect(await onDemand().importing(latitude: 52.55, longitude: 13.45, user: "u1", mayQueue: true) == false)
        #expect(areas.requests.withLock { $0 } == 0)
    }

    @Test("P1: an uncovered point queues its tile once; the next list says importing and keeps the tile")
    func queuesThenTouches() async throws {
        coverage.load(try await areas.coverage())
        #expect(await onDemand().importing(latitude: 52.55, longitude: 13.45, user: "u1", mayQueue: true))
        #expect(areas.all.map(\.status.area.name) == [OnDemandTile(latitude: 52.55, longitude: 13.45, degrees: 0.1).areaName])
        coverage.load(try await areas.coverage())
        #expect(await onDemand().importing(latitude: 52.56, longitude: 13.46, user: "u2", mayQueue: true))
        #expect(areas.requests.withLock { $0 } == 1 && areas.all.first?.touches == 1)
    }

    @Test("P1, U8: an untrusted caller (a new install) queues no tile: the hour's tiles are everyone's")
    func untrustedQueuesNothing() async throws {
        coverage.load(try await areas.coverage())
        #expect(await onDemand().importing(latitude: 52.55, longitude: 13.45, user: "new", mayQueue: false) == false)
        #expect(areas.requests.withLock { $0 } == 0 && areas.all.isEmpty)
        #expect(await onDemand().importing(latitude: 52.55, longitude: 13.45, user: "trusted", mayQueue: true))
        coverage.load(try await areas.coverage())
        #expect(
            await onDemand().importing(latitude: 52.55, longitude: 13.45, user: "new", mayQueue: false),
            "a tile a trusted caller queued says importing to anyone")
    }

    @Test("P1, X3: a user over their hourly limit gets no importing and asks no more meanwhile")
    func refusedUser() async throws {
        coverage.load(try await areas.coverage())
        let limited = onDemand(perUserPerHour: 1)
        #expect(await limited.importing(latitude: 10.05, longitude: 10.05, user: "u1", mayQueue: true))
        #expect(await limited.importing(latitude: 20.05, longitude: 20.05, user: "u1", mayQueue: true) == false)
        #expect(await limited.importing(latitude: 30.05, longitude: 30.05, user: "u1", mayQueue: true) == false)
        #expect(areas.requests.withLock { $0 } == 2 && areas.all.count == 1)
    }

    @Test("P1: a failed request leaves the list as it is: no importing")
    func failedRequest() async throws {
        coverage.load(try await areas.coverage())
        areas.failRequests.withLock { $0 = CancellationError() }
        #expect(await onDemand().importing(latitude: 52.55, longitude: 13.45, user: "u1", mayQueue: true) == false)
        #expect(areas.all.isEmpty)
    }
}
