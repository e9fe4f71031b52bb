import Foundation
import Testing

@testable import PlacesImporter

/// The in-memory plan behind the set-based tile upsert (P1: set-based write paths): the same
/// outcome as applying the candidates one after another.
@Suite("places-importer: tile upsert plan")
struct PlaceBatchPlanTests {
    static func candidate(
        _ id: String, _ name: String, _ latitude: Double, _ longitude: Double, provider: String = "osm", address: String? = nil,
        phone: String? = nil
    ) -> PlaceCandidate {
        PlaceCandidate(
            provider: provider, providerId: id, name: name, category: .cafe, latitude: latitude, longitude: longitude, address: address,
            openingHours: nil, phone: phone, website: nil, internetAccess: nil)
    }

    static func plan(
        _ candidates: [PlaceCandidate], known: [SourceKey: PlaceBatchPlan.KnownSource] = [:],
        existing: [Int: PlaceBatchPlan.ExistingMatch] = [:]
    ) -> PlaceBatchPlan {
        PlaceBatchPlan(candidates: candidates, known: known, existingMatch: { existing[$0] }, matchDistanceMetres: 50)
    }

    @Test("P1: a later description of the same source replaces the earlier one, in the earlier one's place")
    func distinctSources() {
        let first = Self.candidate("node/1", "A", 52.5, 13.4)
        let other = Self.candidate("node/2", "B", 52.5, 13.4)
        var second = first
        second.name = "A renamed"
        #expect(PlaceBatchPlan.distinctSources([first, other, second]) == [second, other])
    }

    @Test("P1: unchanged, changed primary, changed secondary and new sources are counted and routed apart")
    func routing() {
        let unchanged = Self.candidate("node/1", "Same", 52.5, 13.4)
        let primary = Self.candidate("node/2", "Moved", 52.6, 13.4)
        let secondary = Self.candidate("node/3", "Gap filler", 52.7, 13.4, address: "Street 1")
        let fresh = Self.candidate("node/4", "New", 52.8, 13.4)
        let (p1, p2, p3) = (UUID(), UUID(), UUID())
        let known: [SourceKey: PlaceBatchPlan.KnownSource] = [
            SourceKey(unchanged): .init(placeId: p1, fingerprint: unchanged.fingerprint, isPrimary: true),
            SourceKey(primary): .init(placeId: p2, fingerprint: "old", isPrimary: true),
            SourceKey(secondary): .init(placeId: p3, fingerprint: "old", isPrimary: false),
        ]
        let candidates = [unchanged, primary, secondary, fresh]
        let plan = Self.plan(candidates, known: known)
        #expect(plan.outcome == UpsertOutcome(created: 1, changed: 2, unchanged: 1))
        #expect(PlaceBatchPlan.rewrites(of: candidates, known: known).map(\.placeId) == [p2])
        #expect(plan.fills.map(\.placeId) == [p3] && plan.fills.first?.fill.address == "Street 1")
        #expect(plan.changedSources == [primary, secondary])
        #expect(plan.newPlaces.map(\.candidate) == [fresh])
        #expect(plan.touched == [p2, p3] + plan.newPlaces.map(\.id), "unchanged places publish nothing")
    }

    @Test("P1: a new source joins the nearest same-name place, whether in the catalogue or created earlier in the tile")
    func matching() {
        let existing = UUID()
        // 0.0001° of latitude is about 11 m.
        let a = Self.candidate("node/1", "Café Einstein", 52.5, 13.4)
        let b = Self.candidate("node/2", "CAFE EINSTEIN!", 52.5001, 13.4, phone: "+49 30 1")
        let c = Self.candidate("yelp-1", "Cafe Einstein", 52.5002, 13.4, provider: "yelp", address: "Unter den Linden 42")
        let far = Self.candidate("node/3", "Cafe Einstein", 52.51, 13.4)
        // c is 22 m from a (created in this tile) and 40 m from the catalogue place: it joins a.
        let plan = Self.plan([a, b, c, far], existing: [2: .init(placeId: existing, distanceMetres: 40)])
        #expect(plan.newPlaces.count == 2, "a and far create places; b and c join a")
        #expect(plan.outcome == UpsertOutcome(created: 2, changed: 2, unchanged: 0))
        let joined = plan.newPlaces[0]
        #expect(joined.candidate.phone == "+49 30 1" && joined.candidate.address == "Unter den Linden 42", "gaps filled in order")
        #expect(plan.newSources.map(\.placeId) == [joined.id, joined.id, joined.id, plan.newPlaces[1].id])
        #expect(plan.fills.isEmpty, "nothing in the catalogue changes")

        let nearer = Self.plan([a, c], existing: [1: .init(placeId: existing, distanceMetres: 5)])
        #expect(nearer.newSources.map(\.placeId) == [nearer.newPlaces[0].id, existing], "the catalogue place is nearer")
        #expect(nearer.fills.map(\.placeId) == [existing] && nearer.touched.last == existing)
    }

    @Test("P1: two fills of one catalogue place merge field by field, the first value winning")
    func fillsMerge() {
        let place = UUID()
        let first = Self.candidate("yelp-1", "X", 52.5, 13.4, provider: "yelp", address: "First")
        let second = Self.candidate("yelp-2", "X", 52.5, 13.4, provider: "yelp", address: "Second", phone: "+1")
        let known: [SourceKey: PlaceBatchPlan.KnownSource] = [
            SourceKey(first): .init(placeId: place, fingerprint: "old", isPrimary: false),
            SourceKey(second): .init(placeId: place, fingerprint: "old", isPrimary: false),
        ]
        let plan = Self.plan([first, second], known: known)
        #expect(plan.fills.count == 1)
        #expect(plan.fills.first?.fill.address == "First" && plan.fills.first?.fill.phone == "+1")
        #expect(plan.touched == [place])
    }

    @Test("P1: the great-circle distance agrees with a known value")
    func greatCircle() {
        // Berlin (52.5200, 13.4050) to Paris (48.8566, 2.3522): about 878 km.
        let metres = GreatCircle.metres(from: (52.52, 13.405), to: (48.8566, 2.3522))
        #expect(abs(metres - 877_500) < 2_000)
        #expect(GreatCircle.metres(from: (10, 20), to: (10, 20)) == 0)
    }
}
