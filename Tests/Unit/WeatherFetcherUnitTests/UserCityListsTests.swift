import Foundation
import Testing

@testable import WeatherFetcher

/// The user's city lists through their use cases, over `MemoryUserCities`: favourites marked and unmarked (W8), and
/// a signed-in city view joining the recents (W7).
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
    func test_W8_markIsIdempotent() async throws {
        let store = MemoryUserCities(cities: [Self.berlin, Self.hamburg])
        let mark = MarkFavourite(cities: store, favourites: store)
        #expect(try await mark(userId: "u1", cityId: Self.berlin.id))
        #expect(try await !mark(userId: "u1", cityId: Self.berlin.id))
        #expect(store.favourites(of: "u1") == [Self.berlin.id])
        #expect(store.favourites(of: "u2").isEmpty)
    }

    @Test("W8: unmarking removes only that city; unmarking a city that is not a favourite changes nothing")
    func test_W8_unmark() async throws {
        let store = MemoryUserCities(cities: [Self.berlin, Self.hamburg])
        try await MarkFavourite(cities: store, favourites: store)(userId: "u1", cityId: Self.berlin.id)
        try await MarkFavourite(cities: store, favourites: store)(userId: "u1", cityId: Self.hamburg.id)
        let unmark = UnmarkFavourite(cities: store, favourites: store)
        #expect(try await unmark(userId: "u1", cityId: Self.berlin.id))
        #expect(try await !unmark(userId: "u1", cityId: Self.berlin.id))
        #expect(store.favourites(of: "u1") == [Self.hamburg.id])
    }

    @Test("W8: a city the catalogue does not have is refused, and nothing is marked")
    func test_W8_unknownCityRefused() async throws {
        let store = MemoryUserCities(cities: [Self.berlin])
        await #expect(throws: FavouriteRefusal.cityNotFound(Self.hamburg.id)) {
            try await MarkFavourite(cities: store, favourites: store)(userId: "u1", cityId: Self.hamburg.id)
        }
        await #expect(throws: FavouriteRefusal.cityNotFound(Self.hamburg.id)) {
            try await UnmarkFavourite(cities: store, favourites: store)(userId: "u1", cityId: Self.hamburg.id)
        }
        #expect(store.favourites(of: "u1").isEmpty)
    }

    @Test("W7: a view joins the recents, newest first; reloading the newest within a minute writes nothing")
    func test_W7_reloadWithinMinuteWritesNothing() async throws {
        let store = MemoryUserCities(cities: [Self.berlin, Self.hamburg])
        let view = RecordCityView(views: store)
        _ = try await view(userId: "u1", cityId: Self.berlin.id)
        _ = try await view(userId: "u1", cityId: Self.berlin.id)
        #expect(store.writes == 1 && store.recents(of: "u1") == [Self.berlin.id])
        store.advance(by: 61)
        _ = try await view(userId: "u1", cityId: Self.berlin.id)
        #expect(store.writes == 2)
    }

    @Test("W7: a city viewed again after another moves back to the top, even within the minute")
    func test_W7_viewAfterAnotherCityMovesToTop() async throws {
        let store = MemoryUserCities(cities: [Self.berlin, Self.hamburg])
        let view = RecordCityView(views: store)
        for id in [Self.berlin.id, Self.hamburg.id, Self.berlin.id] { _ = try await view(userId: "u1", cityId: id) }
        #expect(store.writes == 3 && store.recents(of: "u1") == [Self.berlin.id, Self.hamburg.id])
    }

    @Test("W7: the recents keep the newest ten cities")
    func test_W7_recentsKeepTenNewest() async throws {
        let store = MemoryUserCities(cities: [Self.berlin, Self.hamburg])
        let view = RecordCityView(views: store)
        for id in 1...12 { _ = try await view(userId: "u1", cityId: id) }
        #expect(store.recents(of: "u1") == Array((3...12).reversed()))
    }

    @Test("W7, W8: the view says whether the city is a favourite")
    func test_W7_viewSaysFavourite() async throws {
        let store = MemoryUserCities(cities: [Self.berlin, Self.hamburg])
        try await MarkFavourite(cities: store, favourites: store)(userId: "u1", cityId: Self.berlin.id)
        let view = RecordCityView(views: store)
        #expect(try await view(userId: "u1", cityId: Self.berlin.id))
        #expect(try await !view(userId: "u1", cityId: Self.hamburg.id))
        #expect(try await !view(userId: "u2", cityId: Self.berlin.id))
    }
}
