import Foundation
import PlatformCore

/// A latitude/longitude box.
package struct GeoBox: Sendable, Equatable, Codable {
    package var south: Double
    package var west: Double
    package var north: Double
    package var east: Double

    package init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    package var isValid: Bool {
        (-90...90).contains(south) && (-90...90).contains(north) && (-180...180).contains(west) && (-180...180).contains(east)
            && south < north && west < east
    }

    /// Splits the box into tiles no wider or taller than `degrees`, row by row from the south-west.
    package func tiles(maxDegrees degrees: Double) -> [GeoBox] {
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

    package var centre: (latitude: Double, longitude: Double) { ((south + north) / 2, (west + east) / 2) }

    /// Great-circle distance from the centre to a corner, in metres: a circle of this radius covers the box.
    package var coveringRadiusMetres: Double {
        GeoDistance.metres(from: centre, to: (north, east))
    }
}

package enum GeoDistance {
    /// The mean radius of the WGS 84 ellipsoid, (2a + b) / 3: the sphere PostGIS measures on when asked
    /// not to use the spheroid.
    package static let sphereRadiusMetres = 6_371_008.771_415_06

    package static func metres(from a: (latitude: Double, longitude: Double), to b: (latitude: Double, longitude: Double)) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians
        let dLon = (b.longitude - a.longitude) * radians
        let h = pow(sin(dLat / 2), 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * pow(sin(dLon / 2), 2)
        return 2 * sphereRadiusMetres * asin(min(1, sqrt(h)))
    }
}
