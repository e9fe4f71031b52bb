import Foundation
import Synchronization

@testable import WeatherFetcher

/// `UserCityStore`'s lists (and `CityStore`'s catalogue of `cities`) in memory, with the rules Postgres keeps: a
/// favourite is marked once; recents are newest first and keep `recentLimit` cities; a user whose only view in a
/// batch is of their newest recent, viewed within the minute before, is no write. `batches` are the recent-view
/// writes as they came, `favouriteReads` counts the reads of a user's favourite ids, and `failWrites` makes the next
/// so many recent-view writes fail.
final class MemoryUserCities: FavouriteCities, RecentCityViews, CityDirectory {
    private struct State {
        var favourites: [String: [Int]] = [:]
        var recents: [String: [CityView]] = [:]
        var batches: [[UserCityViews]] = []
        var favouriteReads = 0
        var failWrites = 0
    }

    struct WriteFailed: Error {}

    let recentLimit: Int
    let cities: [City]
    private let state = Mutex(State())

    init(recentLimit: Int = 10, cities: [City] = []) {
        self.recentLimit = recentLimit
        self.cities = cities
    }

    func find(id: Int) async throws -> City? { cities.first { $0.id == id } }

    var batches: [[UserCityViews]] { state.withLock { $0.batches } }
    var favouriteReads: Int { state.withLock { $0.favouriteReads } }
    func favourites(of user: String) -> [Int] { state.withLock { $0.favourites[user] ?? [] } }
    func recents(of user: String) -> [Int] { state.withLock { ($0.recents[user] ?? []).map(\.cityId) } }
    func recentViews(of user: String) -> [CityView] { state.withLock { $0.recents[user] ?? [] } }
    func failWrites(_ count: Int) { state.withLock { $0.failWrites = count } }

    func addFavourite(userId: String, city: City, limit: Int) async throws -> FavouriteAdding {
        state.withLock { state in
            let favourites = state.favourites[userId] ?? []
            guard !favourites.contains(city.id) else { return .alreadyFavourite }
            guard favourites.count < limit else { return .full }
            state.favourites[userId, default: []].append(city.id)
            return .added
        }
    }

    func removeFavourite(userId: String, city: City) async throws -> Bool {
        state.withLock { state in
            guard let index = state.favourites[userId]?.firstIndex(of: city.id) else { return false }
            state.favourites[userId]?.remove(at: index)
            return true
        }
    }

    func favouriteIds(userId: String) async throws -> Set<Int> {
        state.withLock { state in
            state.favouriteReads += 1
            return Set(state.favourites[userId] ?? [])
        }
    }

    func recordViews(_ batch: [UserCityViews]) async throws {
        try state.withLock { state in
            if state.failWrites > 0 {
                state.failWrites -= 1
                throw WriteFailed()
            }
            state.batches.append(batch)
            for user in batch {
                let recents = state.recents[user.userId] ?? []
                if user.views.count == 1, let view = user.views.first, let newest = recents.first, newest.cityId == view.cityId,
                    newest.viewedAt > view.viewedAt - 60
                {
                    continue
                }
                var updated = recents
                for view in user.views {
                    updated.removeAll { $0.cityId == view.cityId }
                    updated.insert(view, at: 0)
                }
                state.recents[user.userId] = Array(updated.prefix(recentLimit))
            }
        }
    }
}
