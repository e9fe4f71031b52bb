import Foundation
import PlatformHTTP
import Testing

@testable import PlacesImporter

/// The admin's import areas (P1) against areas in memory: a box must be importable, and a saved or re-run area is
/// due at once.
@Suite("places: SaveImportArea and RunImportArea")
struct ImportAreaAdminTests {
    let areas = MemoryImportAreas()
    var save: SaveImportArea { SaveImportArea(areas: areas, maxDegrees: 5) }

    @Test("P1: a new area is due at once; saving its name again moves it")
    func savesAndMoves() async throws {
        try await save(name: "Berlin", box: GeoBox(south: 52.3, west: 13.0, north: 52.7, east: 13.8), placesOfWorship: false)
        try await save(name: "Berlin", box: GeoBox(south: 52.4, west: 13.1, north: 52.6, east: 13.7), placesOfWorship: true)
        let saved = try #require(areas.all.first)
        #expect(areas.all.count == 1 && saved.due && saved.status.area.placesOfWorship)
        #expect(saved.status.area.box == GeoBox(south: 52.4, west: 13.1, north: 52.6, east: 13.7))
    }

    @Test("P1: a box too large or upside down is refused as 422 box, and nothing is written")
    func refusesBox() async throws {
        await #expect(throws: PlacesRefusal.importAreaBox(problem: "may span at most 5.0° each way")) {
            try await save(name: "Europe", box: GeoBox(south: 40, west: 0, north: 50, east: 10), placesOfWorship: false)
        }
        await #expect(throws: PlacesRefusal.importAreaBox(problem: "south must be below north and west left of east")) {
            try await save(name: "Upside", box: GeoBox(south: 53, west: 13, north: 52, east: 14), placesOfWorship: false)
        }
        #expect(areas.all.isEmpty)
        let answer = PlacesErrors.answer(for: .importAreaBox(problem: "may span at most 5.0° each way"))
        #expect(answer.status == .unprocessableContent && answer.details == ["box": "may span at most 5.0° each way"])
    }

    @Test("P1: running an area makes it due; an unknown area is false")
    func runsNow() async throws {
        let id = try await areas.upsert(
            name: "Paris", box: GeoBox(south: 48.8, west: 2.2, north: 48.9, east: 2.4), placesOfWorship: false, runNow: false)
        #expect(areas.all.first?.due == false)
        #expect(try await RunImportArea(areas: areas)(id))
        #expect(areas.all.first?.due == true)
        #expect(try await RunImportArea(areas: areas)(UUID()) == false)
    }
}
