import Foundation
import PlatformCore

/// The box imported for a request for places of worship (B4): the point with the radius (at most 25 km) on every
/// side, clipped to the globe (a box does not wrap around the antimeridian; its far side is left out), and never
/// more than an import area may be: `maximumDegrees` each way and `maximumTiles` provider tiles. Near a pole, where a
/// degree of longitude shrinks to nothing, the box keeps the radius north and south and is narrowed round the point
/// east and west: a request there is answered from the nearer places instead of importing a strip round the globe.
package struct WorshipSearchBox: Sendable {
    package static let metresPerDegreeOfLatitude = 111_320.0

    /// The farthest an import reaches from the point, whatever radius the request names: a box 50 km a side is
    /// about 25 of the default provider tiles; places farther out are answered when something imported them.
    package static let maximumImportRadiusMeters = 25_000.0

    /// The most provider tiles one request imports: four times the 25 of a full-radius box at the equator with the
    /// default 0.1° tile, so only boxes beyond about 77° (or with a smaller tile) are narrowed.
    package static let defaultMaximumTiles = 100

    /// The providers' tile edge (`PLACES_TILE_MILLIDEGREES`): what the box is split into, one request each.
    package var tileDegrees: Double
    /// How far an import area may span each way, as an admin's (`ImportAreaBox.maximumDegrees`).
    package var maximumDegrees = ImportAreaBox.maximumDegrees
    package var maximumTiles = Self.defaultMaximumTiles

    package init(
        tileDegrees: Double, maximumDegrees: Double = ImportAreaBox.maximumDegrees, maximumTiles: Int = Self.defaultMaximumTiles
    ) {
        self.tileDegrees = tileDegrees
        self.maximumDegrees = maximumDegrees
        self.maximumTiles = maximumTiles
    }

    package func around(latitude: Double, longitude: Double, radiusMeters: Double) -> GeoBox {
        let reach = min(radiusMeters, Self.maximumImportRadiusMeters) / Self.metresPerDegreeOfLatitude
        // The circle of the reach round the point spans asin(sin δ / cos φ) of longitude each side, and every
        // longitude once it holds a pole (a degree of longitude per metre grows without bound as cos φ goes to 0).
        let angle = reach * .pi / 180
        let ratio = sin(angle) / cos(latitude * .pi / 180)
        let circleHalfWidth = abs(latitude) + reach >= 90 || ratio >= 1 ? 180 : asin(ratio) * 180 / .pi
        let wantedHalfHeight = min(reach, maximumDegrees / 2)
        let wantedHalfWidth = min(circleHalfWidth, maximumDegrees / 2)
        let (rows, columns) = Self.grid(
            rows: Self.tiles(2 * wantedHalfHeight, of: tileDegrees), columns: Self.tiles(2 * wantedHalfWidth, of: tileDegrees), within: maximumTiles)
        let halfHeight = min(wantedHalfHeight, Double(rows) * tileDegrees / 2)
        let halfWidth = min(wantedHalfWidth, Double(columns) * tileDegrees / 2)
        return GeoBox(
            south: max(-90, latitude - halfHeight), west: max(-180, longitude - halfWidth),
            north: min(90, latitude + halfHeight), east: min(180, longitude + halfWidth))
    }

    /// How many tiles of `degrees` a span takes, as `GeoBox.tiles(maxDegrees:)` counts them.
    private static func tiles(_ span: Double, of degrees: Double) -> Int {
        max(1, (span / degrees - 1e-9).rounded(.up).roundedClampedInt)
    }

    /// Rows and columns of tiles within `limit`: as wanted when they fit; else the side that fits a square keeps
    /// its count and the other takes the rest (a polar box keeps its rows), or a square when neither does.
    package static func grid(rows: Int, columns: Int, within limit: Int) -> (rows: Int, columns: Int) {
        if rows * columns <= limit { return (rows, columns) }
        let side = max(1, Int(Double(limit).squareRoot()))
        if rows <= side { return (rows, max(1, limit / rows)) }
        if columns <= side { return (max(1, limit / columns), columns) }
        return (side, side)
    }

    /// The import area's name for a request, the same on every instance.
    package static func areaName(requestId: String) -> String { "worship \(requestId)" }
}
