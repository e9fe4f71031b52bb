import Foundation

/// One user's marks on places, enough to give every place in a nearby list its pin (P2): their chosen
/// colours, and the places they rated, saved or added.
package struct UserPins: Sendable, Equatable {
    package var colours: [UUID: String] = [:]
    package var touched: Set<UUID> = []

    package init(colours: [UUID: String] = [:], touched: Set<UUID> = []) {
        self.colours = colours
        self.touched = touched
    }

    /// The user's colour, else blue when they added, rated or saved the place, else red.
    package func pin(placeId: UUID, addedBy: String?, user: String) -> String {
        if let colour = colours[placeId] { return colour }
        return addedBy == user || touched.contains(placeId) ? PinColour.touched : PinColour.untouched
    }
}
