import Foundation
import Synchronization
import Testing

@testable import PlacesImporter

/// X3's daily limits on what one account adds to what everyone sees, through the use cases with a memory
/// repository (the counting SQL and its lock are tested against Postgres in `PlacesUserTests`).
@Suite("places-importer: daily limits of an account (X3)")
struct AccountDayLimitsTests {
    static let rating = Rating(
        noise: 3, outlets: 4, wifi: 5, cost: 2, seating: 4, menuOptions: ["lunch"], businessType: "coffee-shop", notes: "")

    static func candidate(_ name: String) -> PlaceCandidate {
        PlaceCandidate(
            provider: "user", providerId: name, name: name, category: .cafe, latitude: 52.5, longitude: 13.4, address: nil,
            openingHours: nil, phone: nil, website: nil, internetAccess: nil)
    }

    @Test("X3: ratings past the limit are refused with when the oldest leaves the window; re-rating is free; nothing stored")
    func ratingLimit() async throws {
        let store = MemoryUserPlaces(recent: RecentCount(count: 0, oldestAgesOutInSeconds: 0))
        let catalogue = MemoryPlaces()
        let rate = RatePlace(catalogue: catalogue, places: store, limits: AccountDayLimits(placesRated: 2, placesAdded: 20))
        let (first, second, third) = (
            catalogue.insert(review: .approved, addedBy: nil).id, catalogue.insert(review: .approved, addedBy: nil).id,
            catalogue.insert(review: .approved, addedBy: nil).id
        )
        _ = try await rate(first, by: .member("u"), rating: Self.rating)
        store.setRecent(RecentCount(count: 1, oldestAgesOutInSeconds: 86_000))
        _ = try await rate(second, by: .member("u"), rating: Self.rating)
        store.setRecent(RecentCount(count: 2, oldestAgesOutInSeconds: 85_000))
        await #expect(throws: PlacesRefusal.tooManyRatings(rated: 2, retryAfterSeconds: 85_000)) {
            try await rate(third, by: .member("u"), rating: Self.rating)
        }
        #expect(store.rated == [first, second], "the refused rating stored nothing")
        // The repository counts other places only: re-rating one already rated sees one fewer.
        store.setRecent(RecentCount(count: 1, oldestAgesOutInSeconds: 85_000))
        _ = try await rate(first, by: .member("u"), rating: Self.rating)
        #expect(store.rated == [first, second, first])
    }

    @Test("P3: a place that does not exist, or a member's place awaiting review, is not found for anyone else to rate")
    func rateOnlyVisiblePlaces() async throws {
        let store = MemoryUserPlaces(recent: RecentCount(count: 0, oldestAgesOutInSeconds: 0))
        let catalogue = MemoryPlaces()
        let rate = RatePlace(catalogue: catalogue, places: store, limits: AccountDayLimits(placesRated: 20, placesAdded: 20))
        let pending = catalogue.insert(review: .pending, addedBy: "adder").id
        let missing = UUID()
        await #expect(throws: PlacesRefusal.placeNotFound(pending)) { try await rate(pending, by: .member("other"), rating: Self.rating) }
        await #expect(throws: PlacesRefusal.placeNotFound(missing)) { try await rate(missing, by: .member("other"), rating: Self.rating) }
        _ = try await rate(pending, by: .member("adder"), rating: Self.rating)
        #expect(store.rated == [pending], "only the adder's own rating of their pending place is stored")
    }

    @Test("X3: places added past the limit are refused and nothing is added")
    func addLimit() async throws {
        let store = MemoryUserPlaces(recent: RecentCount(count: 19, oldestAgesOutInSeconds: 10))
        let add = AddPlace(places: store, limits: AccountDayLimits())
        _ = try await add(Self.candidate("Betahaus"), by: .member("u"), rating: nil, colour: .green)
        store.setRecent(RecentCount(count: 20, oldestAgesOutInSeconds: 9.5))
        await #expect(throws: PlacesRefusal.tooManyPlaces(added: 20, retryAfterSeconds: 9.5)) {
            try await add(Self.candidate("St. Oberholz"), by: .member("u"), rating: Self.rating, colour: nil)
        }
        #expect(store.added == ["Betahaus"])
    }

    @Test("X3: the limits refuse at the limit, not before it")
    func limitBoundaries() {
        let limits = AccountDayLimits(placesRated: 100, placesAdded: 20)
        #expect(limits.refusalToRate(RecentCount(count: 99, oldestAgesOutInSeconds: 1)) == nil)
        #expect(limits.refusalToRate(RecentCount(count: 100, oldestAgesOutInSeconds: 1)) == .tooManyRatings(rated: 100, retryAfterSeconds: 1))
        #expect(limits.refusalToAdd(RecentCount(count: 19, oldestAgesOutInSeconds: 1)) == nil)
        #expect(limits.refusalToAdd(RecentCount(count: 21, oldestAgesOutInSeconds: 1)) == .tooManyPlaces(added: 21, retryAfterSeconds: 1))
    }
}

/// A memory `UserPlaceRepository`: reports the count a test sets, keeps what `check` let through.
final class MemoryUserPlaces: UserPlaceRepository {
    private struct State {
        var recent: RecentCount
        var rated: [UUID] = []
        var added: [PlaceCandidate] = []
    }
    private let state: Mutex<State>

    init(recent: RecentCount) { state = Mutex(State(recent: recent)) }

    func setRecent(_ recent: RecentCount) { state.withLock { $0.recent = recent } }
    var rated: [UUID] { state.withLock { $0.rated } }
    var added: [String] { state.withLock { $0.added.map(\.name) } }
    var addedCandidates: [PlaceCandidate] { state.withLock { $0.added } }

    func rate(
        placeId: UUID, user: String, rating: Rating, check: @Sendable (RecentCount) throws -> Void
    ) async throws -> PlaceRatingAggregate {
        try check(state.withLock { $0.recent })
        state.withLock { $0.rated.append(placeId) }
        return PlaceRatingAggregate(count: 1, averages: [:], menuOptions: [:], businessTypes: [:])
    }

    func add(
        _ candidate: PlaceCandidate, user: String, rating: Rating?, colour: PinColour?, check: @Sendable (RecentCount) throws -> Void
    ) async throws -> UUID {
        try check(state.withLock { $0.recent })
        state.withLock { $0.added.append(candidate) }
        return UUID()
    }
}
