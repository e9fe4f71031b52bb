/// An import area's box (P1): south below north, west left of east, and at most `maxDegrees` each way, so
/// that one area's import is a bounded number of tiles.
enum ImportAreaBox {
    /// Why the box cannot be an import area, or nil when it can.
    static func problem(_ box: GeoBox, maxDegrees: Double) -> String? {
        if box.north - box.south > maxDegrees || box.east - box.west > maxDegrees { return "may span at most \(maxDegrees)° each way" }
        if !box.isValid { return "south must be below north and west left of east" }
        return nil
    }
}
