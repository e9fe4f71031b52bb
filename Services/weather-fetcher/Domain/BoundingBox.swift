import Foundation

/// A latitude/longitude box (W9).
package struct BoundingBox: Sendable, Equatable {
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
}
