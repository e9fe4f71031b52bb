import Foundation
import Testing

@testable import PlacesImporter

/// The box places-importer imports for a request for places of worship (B4), as pure logic.
@Suite("places-importer: the box around a request for places of worship")
struct WorshipSearchBoxTests {
    static let box = WorshipSearchBox(tileDegrees: 0.1)

    @Test("B4: the radius on every side, at most 25 km, wider in degrees away from the equator")
    func boxAroundThePoint() {
        let bangkok = Self.box.around(latitude: 13.75, longitude: 100.5, radiusMeters: 5_000)
        #expect(abs((bangkok.north - bangkok.south) * WorshipSearchBox.metresPerDegreeOfLatitude - 10_000) < 1)
        #expect(bangkok.east - bangkok.west > bangkok.north - bangkok.south, "a degree of longitude is shorter at 13.75°")
        let capped = Self.box.around(latitude: 0, longitude: 0, radiusMeters: 1_000_000)
        #expect(abs((capped.north - capped.south) * WorshipSearchBox.metresPerDegreeOfLatitude - 50_000) < 1)
        #expect(abs((capped.east - capped.west) - (capped.north - capped.south)) < 1e-9, "square at the equator")
        // At 60° a degree of longitude is half a degree of latitude: the circle spans asin(sin δ / cos φ) each side.
        let north = Self.box.around(latitude: 60, longitude: 10, radiusMeters: 20_000)
        let angle = 20_000 / WorshipSearchBox.metresPerDegreeOfLatitude * .pi / 180
        #expect(abs((north.east - 10) - asin(sin(angle) / cos(60 * Double.pi / 180)) * 180 / .pi) < 1e-9)
        #expect(Self.box.around(latitude: 13.75, longitude: 100.5, radiusMeters: 25_000).tiles(maxDegrees: 0.1).count == 25)
    }

    @Test("B4: clipped to the globe at the poles and the antimeridian, never wrapping")
    func clippedToTheGlobe() {
        let pole = Self.box.around(latitude: 89.99, longitude: 10, radiusMeters: 25_000)
        #expect(pole.north == 90 && pole.isValid && pole.west < 10 && pole.east > 10)
        let dateLine = Self.box.around(latitude: -17.7, longitude: 179.95, radiusMeters: 10_000)
        #expect(dateLine.east == 180 && dateLine.west < 179.95 && dateLine.isValid)
        #expect(WorshipSearchBox.areaName(requestId: "r-1") == "worship r-1")
    }

    @Test("B4, X3: a request near a pole is narrowed round its point, never a strip round the globe")
    func polarRequestIsNoGlobeStrip() {
        // The point and radius that once became a box from -179.95° to 180° (thousands of provider tiles).
        let strip = Self.box.around(latitude: 89.95, longitude: 0.05, radiusMeters: 20_000)
        #expect(strip.isValid && strip.north == 90 && strip.south < 89.95)
        #expect(strip.west > -179.95 && strip.east < 180 && strip.west < 0.05 && strip.east > 0.05)
        #expect(strip.east - strip.west <= ImportAreaBox.maximumDegrees)
        #expect(strip.tiles(maxDegrees: 0.1).count <= WorshipSearchBox.defaultMaximumTiles)
        #expect(ImportAreaBox.problem(strip, maxDegrees: ImportAreaBox.maximumDegrees) == nil, "an area an admin could add")
    }

    @Test("B4, X3: at any latitude and tile size the box holds its point, spans at most the import area maximum and 100 tiles")
    func boxWithinImportAreaLimits() {
        for tile in [0.001, 0.01, 0.05, 0.1, 0.5, 5] {
            let search = WorshipSearchBox(tileDegrees: tile)
            for latitude in stride(from: -90.0, through: 90, by: 0.5) {
                for longitude in [-180.0, -179.99, 0.05, 100.5, 180] {
                    let box = search.around(latitude: latitude, longitude: longitude, radiusMeters: 200_000)
                    let count = box.tiles(maxDegrees: tile).count
                    #expect(box.isValid, "\(tile) \(latitude),\(longitude): \(box)")
                    #expect((box.south...box.north).contains(latitude) && (box.west...box.east).contains(longitude))
                    #expect(ImportAreaBox.problem(box, maxDegrees: ImportAreaBox.maximumDegrees) == nil)
                    #expect((1...search.maximumTiles).contains(count), "\(tile) \(latitude),\(longitude): \(count) tiles")
                }
            }
        }
    }
}
