import Foundation

/// Answers nearby lists (P2): from the in-memory index with cached pins when it is on and loaded, otherwise
/// from PostGIS (`PLACES_NEARBY_SOURCE=postgis`, or while the index is still loading). Both write the same
/// JSON.
package struct NearbyPlaces: Sendable {
    /// Nil when the nearby route reads PostGIS only.
    package let index: PlaceIndex?
    package let pinCache: UserPinCache
    package let users: any NearbyPlaceReads
    /// How a place is written in an answer (the API's JSON), for places read from PostGIS.
    package let render: @Sendable (Place) -> String

    package init(index: PlaceIndex?, pinCache: UserPinCache, users: any NearbyPlaceReads, render: @escaping @Sendable (Place) -> String) {
        self.index = index
        self.pinCache = pinCache
        self.users = users
        self.render = render
    }

    package enum Area: Sendable {
        case circle(latitude: Double, longitude: Double, radiusMetres: Double)
        case box(GeoBox)
    }

    /// One page of places in the area with the user's pins; `importing` says the area's first import is still under
    /// way (P1).
    package func page(_ area: Area, user: String, page: Int, pageSize: Int, importing: Bool? = nil) async throws -> NearbyPage {
        let (limit, offset) = (pageSize + 1, (page - 1) * pageSize)
        var found: [PlaceGrid.Found]
        var pins: [String]
        if let grid = index?.snapshot {
            switch area {
            case .circle(let latitude, let longitude, let radius):
                found = grid.near(latitude: latitude, longitude: longitude, radiusMetres: radius, viewer: user, limit: limit, offset: offset)
            case .box(let box):
                found = grid.inBox(box, viewer: user, limit: limit, offset: offset)
            }
            let hasMore = found.count > pageSize
            found = Array(found.prefix(pageSize))
            let userPins = try await pinCache.value(for: user) { try await users.pins(user: user) }
            pins = found.map { userPins.pin(placeId: $0.entry.id, addedBy: $0.entry.addedBy, user: user) }
            return NearbyPage(found: found, pins: pins, page: page, pageSize: pageSize, hasMore: hasMore, importing: importing)
        }
        let pinned: [PinnedPlace]
        switch area {
        case .circle(let latitude, let longitude, let radius):
            pinned = try await users.near(
                latitude: latitude, longitude: longitude, radiusMetres: radius, user: user, limit: limit, offset: offset)
        case .box(let box):
            pinned = try await users.inBox(box, user: user, limit: limit, offset: offset)
        }
        found = pinned.prefix(pageSize).map {
            PlaceGrid.Found(entry: PlaceGrid.Entry($0.place, matchName: "", rendered: render($0.place)), distanceMetres: $0.distanceMetres)
        }
        pins = pinned.prefix(pageSize).map(\.pin)
        return NearbyPage(
            found: found, pins: pins, page: page, pageSize: pageSize, hasMore: pinned.count > pageSize, importing: importing)
    }

    /// The user changed a pin, rating or save, or added a place: their next list shows it.
    package func userChanged(_ user: String) {
        pinCache.invalidate(user)
    }

    /// This instance wrote places: the index takes them in before the caller answers.
    package func placesChanged() async throws {
        try await index?.refresh()
    }
}
