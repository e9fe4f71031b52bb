import Foundation
import Testing

@testable import PlacesImporter

/// The box places-importer imports for a request for places of worship (B4), as pure logic.
@Suite("places-importer: the box around a request for places of worship")
struct WorshipSearchBoxTests {
    @Test("B4: the radius on every side, at most 25 km, wider in degrees away from the equator")
    func test_B4_boxAroundThePoint() {
        let bangkok = WorshipSearchBox.around(latitude: 13.75, longitude: 100.5, radiusMeters: 5_000)
        #expect(abs((bangkok.north - bangkok.south) * WorshipSearchBox.metresPerDegreeOfLatitude - 10_000) < 1)
        #expect(bangkok.east - bangkok.west > bangkok.north - bangkok.south, "a degree of longitude is shorter at 13.75°")
        let capped = WorshipSearchBox.around(latitude: 0, longitude: 0, radiusMeters: 1_000_000)
        #expect(abs((capped.north - capped.south) * WorshipSearchBox.metresPerDegreeOfLatitude - 50_000) < 1)
        #expect(abs((capped.east - capped.west) - (capped.north - capped.south)) < 1e-9, "square at the equator")
    }

    @Test("B4: clipped to the globe at the poles and the antimeridian, never wrapping")
    func test_B4_clippedToTheGlobe() {
        let pole = WorshipSearchBox.around(latitude: 89.99, longitude: 10, radiusMeters: 25_000)
        // Near a pole a degree of longitude is nothing: half the globe on each side, clipped at the antimeridian.
        #expect(pole.north == 90 && pole.east == 180 && pole.west == -170 && pole.isValid)
        let dateLine = WorshipSearchBox.around(latitude: -17.7, longitude: 179.95, radiusMeters: 10_000)
        #expect(dateLine.east == 180 && dateLine.west < 179.95 && dateLine.isValid)
        #expect(WorshipSearchBox.areaName(requestId: "r-1") == "worship r-1")
    }
}
