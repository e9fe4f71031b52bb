/// Where a reading may be placed (B4): its position only finds places to pray, so it must be where people live. The
/// city catalogue (GeoNames' towns of 15,000 or more) spans about 55° S to 79° N, and the app's maps (Web Mercator)
/// stop at 85.05°; nearer the poles a degree of longitude is under 10 km, so the cell around a point there would name
/// a box of places-importer tiles that reaches round the globe. 85° leaves every town and a margin.
package enum ReadingPosition {
    /// The farthest from the equator, either way, in degrees.
    package static let maximumLatitude = 85.0

    package static func isWithinReach(latitude: Double) -> Bool { abs(latitude) <= maximumLatitude }
}
