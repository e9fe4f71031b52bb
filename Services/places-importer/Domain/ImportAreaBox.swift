/// An import area's box (P1): south below north, west left of east, and at most `maxDegrees` each way, so
/// that one area's import is a bounded number of tiles.
package enum ImportAreaBox {
    /// How far an import area may span each way: 5° is 2,500 tiles of the default 0.1°, a large city region.
    package static let maximumDegrees = 5.0

    /// Why the box cannot be an import area, or nil when it can.
    package static func problem(_ box: GeoBox, maxDegrees: Double) -> String? {
        if box.north - box.south > maxDegrees || box.east - box.west > maxDegrees { return "may span at most \(maxDegrees)° each way" }
        if !box.isValid { return "south must be below north and west left of east" }
        return nil
    }
}
