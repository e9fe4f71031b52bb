import Foundation
import NIOCore
import Testing

@testable import PlacesImporter

/// The nearby lists (P2) when they read the database (the in-memory index off or still loading), against reads in
/// memory: one page with the user's pins, whether there is more, and whether the area is still being imported.
@Suite("places: NearbyPlaces without the index")
struct NearbyPlacesTests {
    /// Places in the order the database would answer them, each with the asking user's pin.
    struct MemoryReads: NearbyPlaceReads {
        var pinned: [PinnedPlace]

        func near(
            latitude: Double, longitude: Double, radiusMetres: Double, user: String, limit: Int, offset: Int
        ) async throws
            -> [PinnedPlace]
        {
            Array(pinned.dropFirst(offset).prefix(limit))
        }

        func inBox(_ box: GeoBox, user: String, limit: Int, offset: Int) async throws -> [PinnedPlace] {
            Array(pinned.filter { $0.place.latitude >= box.south && $0.place.latitude <= box.north }.dropFirst(offset).prefix(limit))
        }

        func pins(user: String) async throws -> UserPins { UserPins() }
    }

    struct Page: Decodable {
        struct Entry: Decodable {
            var id: String
            var pin: String
        }

        var places: [Entry]
        var hasMore: Bool
        var importing: Bool?
    }

    static let reads = MemoryReads(
        pinned: (0..<3).map { index in
            let place = Place(id: UUID(), name: "Café \(index)", category: .cafe, latitude: 52.5 + Double(index) / 100, longitude: 13.4)
            return PinnedPlace(place: place, pin: index == 0 ? "green" : PinColour.untouched, distanceMetres: Double(index) * 10)
        })

    func page(_ area: NearbyPlaces.Area, page: Int, pageSize: Int, importing: Bool? = nil) async throws -> Page {
        let nearby = NearbyPlaces(index: nil, pinCache: .pins(ttl: .zero), users: Self.reads, render: PlaceJSON.openObject)
        let body = PlaceJSON.page(try await nearby.page(area, user: "u1", page: page, pageSize: pageSize, importing: importing))
        return try JSONDecoder().decode(Page.self, from: Data(body.readableBytesView))
    }

    @Test("P2: a page of the nearest places carries the user's pins and says there is more")
    func firstPage() async throws {
        let first = try await page(.circle(latitude: 52.5, longitude: 13.4, radiusMetres: 1_000), page: 1, pageSize: 2, importing: true)
        #expect(first.places.map(\.id) == Self.reads.pinned.prefix(2).map { $0.place.id.uuidString.lowercased() })
        #expect(first.places.map(\.pin) == ["green", "red"] && first.hasMore && first.importing == true)
    }

    @Test("P2: the last page has no more; a box lists what lies inside it")
    func lastPageAndBox() async throws {
        let last = try await page(.circle(latitude: 52.5, longitude: 13.4, radiusMetres: 1_000), page: 2, pageSize: 2)
        #expect(last.places.map(\.id) == [Self.reads.pinned[2].place.id.uuidString.lowercased()] && !last.hasMore && last.importing == nil)
        let box = try await page(.box(GeoBox(south: 52.505, west: 13, north: 53, east: 14)), page: 1, pageSize: 5)
        #expect(box.places.count == 2 && !box.hasMore)
    }
}
