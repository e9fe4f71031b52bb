import Foundation
import Testing

@testable import PlacesImporter

/// The places rules the API once decided itself (P1, P4, X3): an import area's box, an address placed by the
/// lookup with the member's own values kept, and who sees a member's place before an admin approved it.
@Suite("places: import areas, address look-ups and who sees a place")
struct PlaceRulesTests {
    /// Answers per address; `down` does not answer.
    struct ScriptedAddresses: AddressLocating {
        let known: [String: LocatedAddress]

        func locate(_ address: String, account: String) async throws -> LocatedAddress? {
            if address == "down" { throw PlacesRefusal.lookupUnavailable }
            return known[address]
        }
    }

    static func candidate(address: String?, phone: String? = nil) -> PlaceCandidate {
        PlaceCandidate(
            provider: "user", providerId: "x", name: "Desk", category: .coworking, latitude: 0, longitude: 0, address: address,
            openingHours: nil, phone: phone, website: nil, internetAccess: nil)
    }

    @Test("P1: an import area spans at most the limit each way, south below north and west left of east")
    func importAreaBox() {
        #expect(ImportAreaBox.problem(GeoBox(south: 52, west: 13, north: 53, east: 14), maxDegrees: 5) == nil)
        #expect(ImportAreaBox.problem(GeoBox(south: 52, west: 13, north: 57, east: 18), maxDegrees: 5) == nil, "the limit itself")
        #expect(ImportAreaBox.problem(GeoBox(south: 52, west: 13, north: 57.1, east: 14), maxDegrees: 5) == "may span at most 5.0° each way")
        #expect(ImportAreaBox.problem(GeoBox(south: 52, west: 13, north: 53, east: 18.5), maxDegrees: 5) == "may span at most 5.0° each way")
        #expect(
            ImportAreaBox.problem(GeoBox(south: 53, west: 13, north: 52, east: 14), maxDegrees: 5)
                == "south must be below north and west left of east")
        #expect(
            ImportAreaBox.problem(GeoBox(south: 52, west: 14, north: 53, east: 14), maxDegrees: 5)
                == "south must be below north and west left of east")
    }

    @Test("P4: a place given by its address is placed by the lookup, which fills only what the member left out")
    func addressFillIn() async throws {
        let store = MemoryUserPlaces(recent: RecentCount(count: 0, oldestAgesOutInSeconds: 0))
        let located = LocatedAddress(
            latitude: 52.52, longitude: 13.40, openingHours: "Mo-Fr 09:00-18:00", phone: "+49 30 1", website: "https://a.example")
        let add = AddPlace(places: store, limits: AccountDayLimits(), addresses: ScriptedAddresses(known: ["Alexanderplatz 1": located]))
        _ = try await add(
            Self.candidate(address: "Alexanderplatz 1", phone: "+49 30 2"), by: .member("u"), rating: nil, colour: nil, locatingAddress: true)
        let stored = try #require(store.addedCandidates.first)
        #expect(stored.latitude == 52.52 && stored.longitude == 13.40)
        #expect(stored.phone == "+49 30 2", "the member's own value is kept")
        #expect(stored.openingHours == "Mo-Fr 09:00-18:00" && stored.website == "https://a.example")
        await #expect(throws: PlacesRefusal.addressNotFound) {
            try await add(Self.candidate(address: "Nowhere 0"), by: .member("u"), rating: nil, colour: nil, locatingAddress: true)
        }
        await #expect(throws: PlacesRefusal.lookupUnavailable) {
            try await add(Self.candidate(address: "down"), by: .member("u"), rating: nil, colour: nil, locatingAddress: true)
        }
        // Coordinates given: the address is not looked up.
        _ = try await add(Self.candidate(address: "Nowhere 0"), by: .member("u"), rating: nil, colour: nil, locatingAddress: false)
        #expect(store.added.count == 2, "the refused ones stored nothing")
    }

    @Test("X3: a member's place is seen by its adder until approved; then by everyone")
    func visibility() {
        var place = Place(
            id: UUID(), name: "Desk", category: .coworking, latitude: 0, longitude: 0, address: nil, openingHours: nil, phone: nil,
            website: nil, internetAccess: nil, addedBy: "adder", review: .pending)
        #expect(place.isVisible(to: "adder") && !place.isVisible(to: "other"))
        place.review = .rejected
        #expect(place.isVisible(to: "adder") && !place.isVisible(to: "other"))
        place.review = .approved
        #expect(place.isVisible(to: "other"))
        place.addedBy = nil
        #expect(place.isVisible(to: "anyone"))
    }

    @Test("P2: a nearby question reaches up to the radius limit, a box up to its span each way and the right way round")
    func nearbyLimits() throws {
        let limits = NearbyLimits(maxRadiusMetres: 5_000, maxBoxDegrees: 1)
        try limits.check(radiusMetres: 5_000)
        #expect(throws: PlacesRefusal.radiusTooLarge(maxMetres: 5_000)) { try limits.check(radiusMetres: 5_001) }
        try limits.check(GeoBox(south: 52, west: 13, north: 53, east: 14))
        #expect(throws: PlacesRefusal.boxTooLarge(maxDegrees: 1)) { try limits.check(GeoBox(south: 52, west: 13, north: 53.5, east: 14)) }
        #expect(throws: PlacesRefusal.invalidBox) { try limits.check(GeoBox(south: 53, west: 13, north: 52, east: 14)) }
    }
}
