import Foundation

/// A place in a nearby list, with the asking user's pin.
package struct PinnedPlace: Sendable {
    package var place: Place
    package var pin: String
    package var distanceMetres: Double?

    package init(place: Place, pin: String, distanceMetres: Double? = nil) {
        self.place = place
        self.pin = pin
        self.distanceMetres = distanceMetres
    }
}
