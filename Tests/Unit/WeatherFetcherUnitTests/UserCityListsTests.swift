import Foundation
import Logging
import Testing

@testable import WeatherFetcher

/// The user's city lists through their use cases, over `MemoryUserCities`: favourites marked and unmarked (W8), and
/// what a signed-in city view says about them from the per-user cache (W8, W3). The recents: `RecentViewsTests`.
@Suite("weather-fetcher: favourites and recent views")
struct UserCityListsTests {
    static func city(_ id: Int, _ name: String) -> City {
        City(
            id: id, name: name, asciiName: name, countryCode: "DE", country: "Germany", region: "Berlin", latitude: 52.5,
            longitude: 13.4, timeZone: "Europe/Berlin", population: 1_000)
    }

    static let berlin = city(2_950_159, "Berlin")
    static let hamburg = city(2_911_298, "Hamburg")

    @Test("W8: marking a favourite twice leaves one, and only the first mark is new")
    func markIsIdempotent() async throws {
        let store = MemoryUserCities(cities: [Self.berlin, Self.hamburg])
        let mark = MarkFavourite(cities: store, favourites: store, known: Self.known())
        #expect(try await mark(userId: "u1", cityId: Self.berlin.id))
        #expect(try await !mark(userId: "u1", cityId: Self.berlin.id))
        #expect(store.favourites(of: "u1") == [Self.berlin.id])
        #expect(store.favourites(of: "u2").isEmpty)
    }

    @Test("W8: unmarking removes only that city; unmarking a city that is not a favourite changes nothing")
    func unmarkW8() async throws {
        let store = MemoryUserCities(cities: [Self.berlin, Self.hamburg])
        try await MarkFavourite(cities: store, favourites: store, known: Self.known())(userId: "u1", cityId: Self.berlin.id)
        try await MarkFavourite(cities: store, favourites: store, known: Self.known())(userId: "u1", cityId: Self.hamburg.id)
        let unmark = UnmarkFavourite(cities: store, favourites: store, known: Self.known())
        #expect(try await unmark(userId: "u1", cityId: Self.berlin.id))
        #expect(try await !unmark(userId: "u1", cityId: Self.berlin.id))
        #expect(store.favourites(of: "u1") == [Self.hamburg.id])
    }

    @Test("W8: a city the catalogue does not have is refused, and nothing is marked")
    func unknownCityRefused() async throws {
        let store = MemoryUserCities(cities: [Self.berlin])
        await #expect(throws: FavouriteRefusal.cityNotFound(Self.hamburg.id)) {
            try await MarkFavourite(cities: store, favourites: store, known: Self.known())(userId: "u1", cityId: Self.hamburg.id)
        }
        await #expect(throws: FavouriteRefusal.cityNotFound(Self.hamburg.id)) {
            try await UnmarkFavourite(cities: store, favourites: store, known: Self.known())(userId: "u1", cityId: Self.hamburg.id)
        }
        #expect(store.favourites(of: "u1").isEmpty)
    }

    @Test("W7, W8: the view says whether the city is a favourite")
    func viewSaysFavourite() async throws {
        let store = MemoryUserCities(cities: [Self.berlin, Self.hamburg])
        try await MarkFavourite(cities: store, favourites: store, known: Self.known())(userId: "u1", cityId: Self.berlin.id)
        let view = Self.recordView(store)
        #expect(try await view(userId: "u1", cityId: Self.berlin.id, at: Self.noon))
        #expect(try await !view(userId: "u1", cityId: Self.hamburg.id, at: Self.noon))
        #expect(try await !view(userId: "u2", cityId: Self.berlin.id, at: Self.noon))
    }

    @Test("W8, W3: a favourite just marked shows in the user's next view, though their favourites were cached before")
    func markShowsInNextView() async throws {
        let store = MemoryUserCities(cities: [Self.berlin, Self.hamburg])
        let known = Self.known()
        let view = Self.recordView(store, known: known)
        #expect(try await !view(userId: "u1", cityId: Self.berlin.id, at: Self.noon))
        try await MarkFavourite(cities: store, favourites: store, known: known)(userId: "u1", cityId: Self.berlin.id)
        #expect(try await view(userId: "u1", cityId: Self.berlin.id, at: Self.noon))
        #expect(try await !view(userId: "u1", cityId: Self.hamburg.id, at: Self.noon))
    }

    @Test("W8, W3: a favourite just unmarked shows in the user's next view, though their favourites were cached before")
    func unmarkShowsInNextView() async throws {
        let store = MemoryUserCities(cities: [Self.berlin, Self.hamburg])
        let known = Self.known()
        try await MarkFavourite(cities: store, favourites: store, known: known)(userId: "u1", cityId: Self.berlin.id)
        let view = Self.recordView(store, known: known)
        #expect(try await view(userId: "u1", cityId: Self.berlin.id, at: Self.noon))
        try await UnmarkFavourite(cities: store, favourites: store, known: known)(userId: "u1", cityId: Self.berlin.id)
        #expect(try await !view(userId: "u1", cityId: Self.berlin.id, at: Self.noon))
    }

    @Test("W8, W3: many views of a user read their favourites once; another user's views read theirs")
    func favouritesReadOncePerUser() async throws {
        let store = MemoryUserCities(cities: [Self.berlin, Self.hamburg])
        let view = Self.recordView(store)
        for round in 0..<50 {
            let cityId = round.isMultiple(of: 2) ? Self.berlin.id : Self.hamburg.id
            _ = try await view(userId: "u1", cityId: cityId, at: Self.noon + Double(round))
        }
        #expect(store.favouriteReads == 1)
        _ = try await view(userId: "u2", cityId: Self.berlin.id, at: Self.noon)
        #expect(store.favouriteReads == 2)
        #expect(store.batches.isEmpty, "and no view wrote anything itself")
    }

    static let noon = Date(timeIntervalSince1970: 1_790_000_000)
    static let logger = Logger(label: "weather-fetcher-unit-tests")

    /// A cache whose entries outlive every test: only an invalidation can change what a view says.
    static func known() -> FavouriteIdsCache { .favourites(ttl: .seconds(3_600)) }

    static func recordView(_ store: MemoryUserCities, known: FavouriteIdsCache = known()) -> RecordCityView<MemoryUserCities> {
        RecordCityView(favourites: store, known: known, recents: RecentViewsRecorder(store: store, recentLimit: 10, logger: logger))
    }
}
