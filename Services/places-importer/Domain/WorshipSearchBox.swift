import Foundation

/// The box imported for a request for places of worship (B4): the point with the radius (at most 25 km) on every
/// side, clipped to the globe (a box does not wrap around the antimeridian; its far side is left out).
enum WorshipSearchBox {
    static let metresPerDegreeOfLatitude = 111_320.0

    /// The farthest an import reaches from the point, whatever radius the request names: a box 50 km a side is
    /// about 25 of the default provider tiles; places farther out are answered when something imported them.
    static let maximumImportRadiusMeters = 25_000.0

    static func around(latitude: Double, longitude: Double, radiusMeters: Double) -> GeoBox {
        let halfHeight = min(radiusMeters, maximumImportRadiusMeters) / metresPerDegreeOfLatitude
        // Near the poles a degree of longitude shrinks to nothing: the whole width of the globe then.
        let cosine = cos(latitude * .pi / 180)
        let halfWidth = cosine > 0.01 ? min(180, halfHeight / cosine) : 180
        return GeoBox(
            south: max(-90, latitude - halfHeight), west: max(-180, longitude - halfWidth),
            north: min(90, latitude + halfHeight), east: min(180, longitude + halfWidth))
    }

    /// The import area's name for a request, the same on every instance.
    static func areaName(requestId: String) -> String { "worship \(requestId)" }
}
