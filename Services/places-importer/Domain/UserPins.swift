import Foundation

/// One user's marks on places, enough to give every place in a nearby list its pin (P2): their chosen
/// colours, and the places they rated, saved or added.
struct UserPins: Sendable, Equatable {
    var colours: [UUID: String] = [:]
    var touched: Set<UUID> = []

    /// The user's colour, else blue when they added, rated or saved the place, else red.
    func pin(placeId: UUID, addedBy: String?, user: String) -> String {
        if let colour = colours[placeId] { return colour }
        return addedBy == user || touched.contains(placeId) ? PinColour.touched : PinColour.untouched
    }
}
