import Foundation
import PlatformCore
import PlatformHTTP

/// A public source of workplaces (P1). Each provider decodes its own wire format into candidates and knows
/// how big an area one request may cover.
protocol PlacesProvider: Sendable {
    /// `osm` or `yelp`: the first half of every source id the provider contributes.
    var name: String { get }
    /// The largest tile edge, in degrees, one request covers; larger areas are split.
    var tileDegrees: Double { get }
    /// Every workplace in `tile`, and with `placesOfWorship` the places of worship too. Throws `ProviderError`.
    func places(in tile: GeoBox, placesOfWorship: Bool) async throws -> [PlaceCandidate]
    /// The same, saying whether the answer lists every place the provider knows there (a capped search does
    /// not): only a complete answer may close the places it leaves out.
    func tile(_ tile: GeoBox, placesOfWorship: Bool) async throws -> ProviderTile
}

/// One tile's answer from a provider.
struct ProviderTile: Sendable {
    var candidates: [PlaceCandidate]
    /// False when the provider cut its answer short (Yelp's result cap).
    var complete: Bool
}

extension PlacesProvider {
    /// Providers whose answers are never cut short.
    func tile(_ tile: GeoBox, placesOfWorship: Bool) async throws -> ProviderTile {
        ProviderTile(candidates: try await places(in: tile, placesOfWorship: placesOfWorship), complete: true)
    }
}

/// A latitude/longitude box.
struct GeoBox: Sendable, Equatable, Codable {
    var south: Double
    var west: Double
    var north: Double
    var east: Double

    var isValid: Bool {
        (-90...90).contains(south) && (-90...90).contains(north) && (-180...180).contains(west) && (-180...180).contains(east)
            && south < north && west < east
    }

    /// Splits the box into tiles no wider or taller than `degrees`, row by row from the south-west.
    func tiles(maxDegrees degrees: Double) -> [GeoBox] {
        // The epsilon keeps 0.03 / 0.01 (3.0000000000000027 in binary) from becoming four columns.
        let rows = max(1, ((north - south) / degrees - 1e-9).rounded(.up).roundedClampedInt)
        let columns = max(1, ((east - west) / degrees - 1e-9).rounded(.up).roundedClampedInt)
        let height = (north - south) / Double(rows)
        let width = (east - west) / Double(columns)
        var tiles: [GeoBox] = []
        for row in 0..<rows {
            for column in 0..<columns {
                tiles.append(
                    GeoBox(
                        south: south + Double(row) * height, west: west + Double(column) * width,
                        north: row == rows - 1 ? north : south + Double(row + 1) * height,
                        east: column == columns - 1 ? east : west + Double(column + 1) * width))
            }
        }
        return tiles
    }

    var centre: (latitude: Double, longitude: Double) { ((south + north) / 2, (west + east) / 2) }

    /// Great-circle distance from the centre to a corner, in metres: a circle of this radius covers the box.
    var coveringRadiusMetres: Double {
        GeoDistance.metres(from: centre, to: (north, east))
    }
}

enum GeoDistance {
    /// The mean radius of the WGS 84 ellipsoid, (2a + b) / 3: the sphere PostGIS measures on when asked
    /// not to use the spheroid.
    static let sphereRadiusMetres = 6_371_008.771_415_06

    static func metres(from a: (latitude: Double, longitude: Double), to b: (latitude: Double, longitude: Double)) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians
        let dLon = (b.longitude - a.longitude) * radians
        let h = pow(sin(dLat / 2), 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * pow(sin(dLon / 2), 2)
        return 2 * sphereRadiusMetres * asin(min(1, sqrt(h)))
    }
}
