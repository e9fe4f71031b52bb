import Foundation
import Testing

@testable import PlacesImporter

/// Areas cut into tiles, on-demand tiles around a point, and what the coverage says of a point (P1), as pure logic.
@Suite("places-importer: tiles and coverage")
struct TilingTests {
    @Test("P1: tiles cover the area exactly, none bigger than asked, however the degrees round")
    func tilesP1() {
        let box = GeoBox(south: 52.51, west: 13.38, north: 52.53, east: 13.41)
        let tiles = box.tiles(maxDegrees: 0.01)
        #expect(tiles.count == 6)
        #expect(tiles.allSatisfy { $0.north - $0.south <= 0.0100001 && $0.east - $0.west <= 0.0100001 })
        #expect(tiles.first?.south == 52.51 && tiles.first?.west == 13.38 && tiles.last?.north == 52.53 && tiles.last?.east == 13.41)
        #expect(GeoBox(south: 0, west: 0, north: 0.05, east: 0.05).tiles(maxDegrees: 0.1).count == 1)
        #expect(abs(box.coveringRadiusMetres - 1_506) < 10, "half the diagonal of 2.22 km × 2.03 km")
    }
    @Test("P1: on-demand tiles are named alike on every instance, cover their point, and stay on the globe")
    func onDemandTiles() {
        let tile = OnDemandTile(latitude: 52.5172, longitude: 13.389, degrees: 0.1)
        #expect(tile.areaName == "nearby 52.5000,13.3000")
        #expect(abs(tile.box.south - 52.5) < 1e-9 && abs(tile.box.east - 13.4) < 1e-9)
        #expect(OnDemandTile(box: tile.box, degrees: 0.1) == tile)
        let corner = OnDemandTile(latitude: 90, longitude: 180, degrees: 0.1)
        #expect(corner.box.north <= 90 && corner.box.east <= 180 && corner.box.isValid)
        let southWest = OnDemandTile(latitude: -90, longitude: -180, degrees: 0.1)
        #expect(southWest.row == 0 && southWest.column == 0)
        let negative = OnDemandTile(latitude: -33.87, longitude: -0.05, degrees: 0.1)
        #expect(negative.box.south <= -33.87 && negative.box.north > -33.87 && negative.box.west <= -0.05 && negative.box.east > -0.05)
    }
    @Test("P1: coverage: configured areas, queued tiles, refusals that wait, and nothing before the first load")
    func coverageP1() {
        let coverage = ImportCoverage(tileDegrees: 0.1, retryAfterRefusal: .seconds(60))
        #expect(coverage.status(latitude: 1, longitude: 1) == .unknown)
        coverage.load([
            .init(box: GeoBox(south: 52.4, west: 13.2, north: 52.7, east: 13.6), onDemand: false, imported: true),
            .init(box: GeoBox(south: 48.1, west: 11.5, north: 48.2, east: 11.6), onDemand: true, imported: false),
        ])
        #expect(coverage.status(latitude: 52.52, longitude: 13.4) == .covered(importing: false))
        #expect(coverage.status(latitude: 48.15, longitude: 11.55) == .covered(importing: true))
        let paris = OnDemandTile(latitude: 48.85, longitude: 2.35, degrees: 0.1)
        #expect(coverage.status(latitude: 48.85, longitude: 2.35) == .uncovered(paris))
        let now = ContinuousClock.now
        coverage.noteRefused(paris, now: now)
        #expect(coverage.status(latitude: 48.85, longitude: 2.35, now: now + .seconds(30)) == .covered(importing: false))
        #expect(coverage.status(latitude: 48.85, longitude: 2.35, now: now + .seconds(61)) == .uncovered(paris))
        coverage.noteQueued(paris)
        #expect(coverage.status(latitude: 48.85, longitude: 2.35) == .covered(importing: true))
        // A user over their own limit is not asked about again until the wait has passed.
        coverage.noteRefused(user: "carol", now: now)
        #expect(coverage.isRefused(user: "carol", now: now + .seconds(30)) && !coverage.isRefused(user: "dave", now: now))
        #expect(!coverage.isRefused(user: "carol", now: now + .seconds(61)))
    }
}
