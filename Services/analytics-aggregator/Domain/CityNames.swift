import PlatformCore
import PlatformEvents

/// The names weather's favourites (`weather.user-cities`) give cities, for the location reports (N2): per city
/// the least name any event gave it, so every order of the same events gives the same names.
package struct CityNames: Equatable {
    /// City id → name, trimmed and at most 200 characters.
    package var names: [Int: String] = [:]

    /// Throws when a favourite's payload does not decode (the consumer then dead-letters that event); removals
    /// name no city worth keeping.
    package init(decoding events: [ReceivedEvent]) throws {
        for event in events where event.header.type == EventTypes.favouriteAdded {
            let favourite = try event.payload(as: FavouriteChanged.self)
            let name = RequestText.trimmed(favourite.city.name)
            guard favourite.city.id > 0, !name.isEmpty else { continue }
            let trimmed = String(name.prefix(200))
            names[favourite.city.id] = names[favourite.city.id].map { min($0, trimmed) } ?? trimmed
        }
    }
}
