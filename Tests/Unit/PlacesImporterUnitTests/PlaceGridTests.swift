import Foundation
import Testing

@testable import PlacesImporter

/// The in-memory nearby index and its hand-written JSON, as pure logic (P2).
@Suite("places-importer: place grid and nearby JSON")
struct PlaceGridTests {
    static func place(_ name: String, _ latitude: Double, _ longitude: Double, addedBy: String? = nil) -> Place {
        Place(
            id: UUID(), name: name, category: .cafe, latitude: latitude, longitude: longitude, address: nil, openingHours: nil,
            phone: nil, website: nil, internetAccess: nil, addedBy: addedBy)
    }

    static func grid(_ places: [Place]) -> PlaceGrid {
        var grid = PlaceGrid()
        for place in places { grid.upsert(PlaceGrid.Entry(place, matchName: MatchName.of(place.name), rendered: PlaceJSON.openObject(place))) }
        return grid
    }

    @Test("P2: a radius query keeps places inside the circle, nearest first, and pages")
    func radius() {
        // 0.001° of latitude is about 111 m.
        let places = (0..<30).map { Self.place("P\($0)", 52.5 + Double($0) * 0.001, 13.4) }
        let grid = Self.grid(places.shuffled())
        let found = grid.near(latitude: 52.5, longitude: 13.4, radiusMetres: 1_000, viewer: "anyone", limit: 100, offset: 0)
        #expect(found.map(\.entry.id) == places.prefix(9).map(\.id), "within 1 km: the first nine, 0 to 890 m")
        #expect(abs((found.last?.distanceMetres ?? 0) - 889.56) < 0.1)
        let second = grid.near(latitude: 52.5, longitude: 13.4, radiusMetres: 1_000, viewer: "anyone", limit: 3, offset: 3)
        #expect(second.map(\.entry.id) == places[3..<6].map(\.id))
        #expect(grid.near(latitude: 52.5, longitude: 13.4, radiusMetres: 1_000, viewer: "anyone", limit: 3, offset: 50).isEmpty)
    }

    @Test("P2: circles across the date line and around a pole find their places")
    func wrapAndPoles() {
        let east = Self.place("East", 0, 179.999)
        let west = Self.place("West", 0, -179.999)
        let polar = Self.place("Polar", 89.9995, 20)
        let grid = Self.grid([east, west, polar])
        let aroundDateLine = grid.near(latitude: 0, longitude: 179.9995, radiusMetres: 500, viewer: "anyone", limit: 10, offset: 0)
        #expect(Set(aroundDateLine.map(\.entry.id)) == [east.id, west.id])
        let aroundPole = grid.near(latitude: 89.9995, longitude: -160, radiusMetres: 200, viewer: "anyone", limit: 10, offset: 0)
        #expect(aroundPole.map(\.entry.id) == [polar.id])
    }

    @Test("P2: a box query lists by folded name then id; a moved place leaves its old cell")
    func boxAndMove() {
        let zebra = Self.place("zebra", 52.51, 13.41)
        let alpha = Self.place("Älpha", 52.52, 13.42)
        let outside = Self.place("Beta", 52.60, 13.42)
        var grid = Self.grid([zebra, alpha, outside])
        let box = GeoBox(south: 52.5, west: 13.4, north: 52.55, east: 13.45)
        #expect(grid.inBox(box, viewer: "anyone", limit: 10, offset: 0).map(\.entry.id) == [alpha.id, zebra.id])
        var moved = outside
        moved.latitude = 52.53
        grid.upsert(PlaceGrid.Entry(moved, matchName: "beta", rendered: PlaceJSON.openObject(moved)))
        #expect(grid.inBox(box, viewer: "anyone", limit: 10, offset: 0).map(\.entry.id) == [alpha.id, moved.id, zebra.id])
        #expect(grid.count == 3)
        #expect(grid.inBox(GeoBox(south: 52.59, west: 13.4, north: 52.61, east: 13.45), viewer: "anyone", limit: 10, offset: 0).isEmpty)
    }

    @Test("P2: the hand-written page decodes as the documented DTOs, odd characters included")
    func json() throws {
        var odd = Self.place("Quote \" back\\slash\nnew line\u{1} Café ☕", 52.5, 13.4, addedBy: "u1")
        odd.address = "Straße 1"
        odd.website = "https://example.org/a?b=c&d"
        let plain = Self.place("Plain", -33.5, -70.25)
        let found = [
            PlaceGrid.Found(entry: PlaceGrid.Entry(odd, matchName: "", rendered: PlaceJSON.openObject(odd)), distanceMetres: 12.345),
            PlaceGrid.Found(entry: PlaceGrid.Entry(plain, matchName: "", rendered: PlaceJSON.openObject(plain)), distanceMetres: nil),
        ]
        let body = PlaceJSON.page(NearbyPage(found: found, pins: ["green", "red"], page: 2, pageSize: 2, hasMore: true))
        struct Page: Decodable {
            var places: [Components.Schemas.Place]
            var page: Int
            var pageSize: Int
            var hasMore: Bool
        }
        let page = try JSONDecoder().decode(Page.self, from: Data(body.readableBytesView))
        #expect(page.places == [Components.Schemas.Place(odd, pin: "green", distanceMetres: 12.345), Components.Schemas.Place(plain, pin: "red")])
        #expect(page.page == 2 && page.pageSize == 2 && page.hasMore)
    }

    @Test("P2: pins: the user's colour, else blue when added, rated or saved, else red")
    func userPins() {
        let (a, b, c, d) = (UUID(), UUID(), UUID(), UUID())
        let pins = UserPins(colours: [a: "green"], touched: [a, b])
        #expect(pins.pin(placeId: a, addedBy: nil, user: "u") == "green")
        #expect(pins.pin(placeId: b, addedBy: nil, user: "u") == "blue")
        #expect(pins.pin(placeId: c, addedBy: "u", user: "u") == "blue")
        #expect(pins.pin(placeId: d, addedBy: "someone else", user: "u") == "red")
    }
}
