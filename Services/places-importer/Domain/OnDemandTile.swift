import Foundation
import PlatformCore

/// A square of the on-demand grid (P1): the tile around a user who opens the app where no area was ever
/// imported. Tiles are `degrees` wide, counted from 90° S and 180° W, so every instance names the same tile
/// the same way and the name deduplicates requests across instances.
package struct OnDemandTile: Hashable, Sendable {
    package var row: Int
    package var column: Int
    package var degrees: Double

    /// The tile holding the point (its south-west edges belong to it).
    package init(latitude: Double, longitude: Double, degrees: Double) {
        let rows = (180 / degrees).rounded(.up).roundedClampedInt
        let columns = (360 / degrees).rounded(.up).roundedClampedInt
        row = min(max(0, ((latitude + 90) / degrees).rounded(.down).roundedClampedInt), rows - 1)
        column = min(max(0, ((longitude + 180) / degrees).rounded(.down).roundedClampedInt), columns - 1)
        self.degrees = degrees
    }

    /// The tile whose south-west corner an on-demand area's box starts at.
    package init(box: GeoBox, degrees: Double) {
        row = ((box.south + 90) / degrees).rounded().roundedClampedInt
        column = ((box.west + 180) / degrees).rounded().roundedClampedInt
        self.degrees = degrees
    }

    package var box: GeoBox {
        let south = Double(row) * degrees - 90
        let west = Double(column) * degrees - 180
        return GeoBox(south: south, west: west, north: min(90, south + degrees), east: min(180, west + degrees))
    }

    /// The import area's name, the same on every instance.
    package var areaName: String {
        String(format: "nearby %.4f,%.4f", box.south, box.west)
    }
}
