import Foundation

/// A place of worship near a point (B4), and how far it is.
package struct NearbyWorshipPlace: Sendable {
    package var name: String
    package var latitude: Double
    package var longitude: Double
    package var address: String?
    package var distanceMeters: Int

    package init(name: String, latitude: Double, longitude: Double, address: String? = nil, distanceMeters: Int) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.distanceMeters = distanceMeters
    }
}
