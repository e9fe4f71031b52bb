import Foundation
import Synchronization

@testable import WeatherFetcher

/// `UserCityStore`'s lists (and `CityStore`'s catalogue of `cities`) in memory, with the rules Postgres keeps: a favourite is marked once; recents are newest
/// first, keep `recentLimit` cities, and a view of the newest recent within the last minute is no write. `now` is the
/// store's clock; `writes` counts the recent views that changed something.
final class MemoryUserCities: FavouriteCities, RecentCityViews, CityDirectory {
    private struct State {
        var now = Date(timeIntervalSince1970: 1_790_000_000)
        var favourites: [String: [Int]] = [:]
        var recents: [String: [(cityId: Int, viewedAt: Date)]] = [:]
        var writes = 0
    }

    let recentLimit: Int
    let cities: [City]
    private let state = Mutex(State())

    init(recentLimit: Int = 10, cities: [City] = []) {
        self.recentLimit = recentLimit
        self.cities = cities
    }

    func find(id: Int) async throws -> City? { cities.first { $0.id == id } }

    var writes: Int { state.withLock { $0.writes } }
    func favourites(of user: String) -> [Int] { state.withLock { $0.favourites[user] ?? [] } }
    func recents(of user: String) -> [Int] { state.withLock { ($0.recents[user] ?? []).map(\.cityId) } }
    func advance(by seconds: TimeInterval) { state.withLock { $0.now += seconds } }

    func addFavourite(userId: String, city: City) async throws -> Bool {
        state.withLock { state in
            guard !(state.favourites[userId] ?? []).contains(city.id) else { return false }
            state.favourites[userId, default: []].append(city.id)
            return true
        }
    }

    func removeFavourite(userId: String, city: City) async throws -> Bool {
        state.withLock { state in
            guard let index = state.favourites[userId]?.firstIndex(of: city.id) else { return false }
            state.favourites[userId]?.remove(at: index)
            return true
        }
    }

    func viewState(userId: String, cityId: Int) async throws -> (isNewestRecentView: Bool, isFavourite: Bool) {
        state.withLock { state in
            (Self.isNewestWithinMinute(state, userId: userId, cityId: cityId), (state.favourites[userId] ?? []).contains(cityId))
        }
    }

    func recordView(userId: String, cityId: Int) async throws {
        state.withLock { state in
            guard !Self.isNewestWithinMinute(state, userId: userId, cityId: cityId) else { return }
            var recents = (state.recents[userId] ?? []).filter { $0.cityId != cityId }
            recents.insert((cityId, state.now), at: 0)
            state.recents[userId] = Array(recents.prefix(recentLimit))
            state.writes += 1
        }
    }

    private static func isNewestWithinMinute(_ state: State, userId: String, cityId: Int) -> Bool {
        guard let newest = state.recents[userId]?.first else { return false }
        return newest.cityId == cityId && newest.viewedAt > state.now - 60
    }
}
