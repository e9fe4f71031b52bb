import Foundation
import Logging
import ServiceLifecycle
import Testing

@testable import WeatherFetcher

/// The recents (W7) written in batches by `RecentViewsRecorder` over `MemoryUserCities`: views coalesce per user in
/// memory, one write carries them, a reload of the newest recent within a minute writes nothing, and a graceful stop
/// writes what is left.
@Suite("weather-fetcher: recent views written in batches")
struct RecentViewsTests {
    static let noon = Date(timeIntervalSince1970: 1_790_000_000)
    static let logger = Logger(label: "weather-fetcher-unit-tests")

    static func recorder(_ store: MemoryUserCities, maxPendingUsers: Int = 10_000) -> RecentViewsRecorder {
        RecentViewsRecorder(store: store, recentLimit: store.recentLimit, maxPendingUsers: maxPendingUsers, logger: logger)
    }

    @Test("W7: a user's views within one flush window are one write, each city once, in the order viewed")
    func viewsCoalesceIntoOneWrite() async throws {
        let store = MemoryUserCities()
        let recorder = Self.recorder(store)
        for (offset, cityId) in [1, 2, 1, 3, 3].enumerated() {
            await recorder.note(userId: "u1", cityId: cityId, at: Self.noon + Double(offset))
        }
        await recorder.note(userId: "u2", cityId: 9, at: Self.noon)
        #expect(store.batches.isEmpty, "noting a view writes nothing")
        try await recorder.flush()
        try #require(store.batches.count == 1)
        let written = Dictionary(uniqueKeysWithValues: store.batches[0].map { ($0.userId, $0.views) })
        let viewed = [CityView(cityId: 2, viewedAt: Self.noon + 1), CityView(cityId: 1, viewedAt: Self.noon + 2)]
        #expect(written["u1"] == viewed + [CityView(cityId: 3, viewedAt: Self.noon + 3)], "the reload of city 3 kept its first time")
        #expect(written["u2"]?.map(\.cityId) == [9])
        #expect(store.recents(of: "u1") == [3, 1, 2] && store.recents(of: "u2") == [9])
        try await recorder.flush()
        #expect(store.batches.count == 1, "nothing noted, nothing written")
    }

    @Test("W7: reloading the newest recent within a minute writes nothing; after a minute it moves again")
    func reloadWithinMinuteWritesNothing() async throws {
        let store = MemoryUserCities()
        let recorder = Self.recorder(store)
        await recorder.note(userId: "u1", cityId: 1, at: Self.noon)
        try await recorder.flush()
        await recorder.note(userId: "u1", cityId: 1, at: Self.noon + 30)
        try await recorder.flush()
        #expect(store.batches.count == 1)
        await recorder.note(userId: "u1", cityId: 1, at: Self.noon + 61)
        try await recorder.flush()
        #expect(store.batches.count == 2 && store.recentViews(of: "u1") == [CityView(cityId: 1, viewedAt: Self.noon + 61)])
    }

    @Test("W7: the store keeps the minute rule for a view another instance noted, unless it comes with other cities")
    func storeKeepsMinuteRule() async throws {
        let store = MemoryUserCities()
        try await store.recordViews([UserCityViews(userId: "u1", views: [CityView(cityId: 1, viewedAt: Self.noon)])])
        try await store.recordViews([UserCityViews(userId: "u1", views: [CityView(cityId: 1, viewedAt: Self.noon + 30)])])
        #expect(store.recentViews(of: "u1") == [CityView(cityId: 1, viewedAt: Self.noon)])
        let both = [CityView(cityId: 2, viewedAt: Self.noon + 31), CityView(cityId: 1, viewedAt: Self.noon + 32)]
        try await store.recordViews([UserCityViews(userId: "u1", views: both)])
        #expect(store.recents(of: "u1") == [1, 2])
    }

    @Test("W7: a city viewed again after another moves back to the top, even within the minute")
    func viewAfterAnotherCityMovesToTop() async throws {
        let store = MemoryUserCities()
        let recorder = Self.recorder(store)
        for (offset, cityId) in [1, 2, 1].enumerated() {
            await recorder.note(userId: "u1", cityId: cityId, at: Self.noon + Double(offset))
            try await recorder.flush()
        }
        #expect(store.batches.count == 3 && store.recents(of: "u1") == [1, 2])
    }

    @Test("W7: the recents keep the newest ten cities")
    func recentsKeepTenNewest() async throws {
        let store = MemoryUserCities()
        let recorder = Self.recorder(store)
        for id in 1...12 { await recorder.note(userId: "u1", cityId: id, at: Self.noon + Double(id)) }
        try await recorder.flush()
        #expect(store.recents(of: "u1") == Array((3...12).reversed()))
    }

    @Test("W7: reading one's recents writes one's own noted views first, and only those")
    func ownReadFlushesOwnViews() async throws {
        let store = MemoryUserCities()
        let recorder = Self.recorder(store)
        await recorder.note(userId: "u1", cityId: 1, at: Self.noon)
        await recorder.note(userId: "u2", cityId: 2, at: Self.noon)
        try await recorder.flush(userId: "u1")
        #expect(store.recents(of: "u1") == [1] && store.recents(of: "u2").isEmpty)
        #expect(recorder.noted.keys.sorted() == ["u2"])
    }

    @Test("W7: a failed write keeps its views, before the ones noted since, for the next flush")
    func failedWriteKeepsViews() async throws {
        let store = MemoryUserCities()
        let recorder = Self.recorder(store)
        store.failWrites(1)
        await recorder.note(userId: "u1", cityId: 1, at: Self.noon)
        await recorder.flushLogging()
        await recorder.note(userId: "u1", cityId: 2, at: Self.noon + 1)
        try await recorder.flush()
        #expect(store.batches.map { $0.map(\.userId) } == [["u1"]] && store.recents(of: "u1") == [2, 1])
    }

    @Test("W7: past the bound on users waiting, the view that passes it writes them all first")
    func pendingUsersBounded() async throws {
        let store = MemoryUserCities()
        let recorder = Self.recorder(store, maxPendingUsers: 2)
        await recorder.note(userId: "u1", cityId: 1, at: Self.noon)
        await recorder.note(userId: "u2", cityId: 1, at: Self.noon)
        #expect(store.batches.isEmpty)
        await recorder.note(userId: "u3", cityId: 1, at: Self.noon)
        #expect(store.batches.count == 1 && store.batches[0].count == 3 && recorder.noted.isEmpty)
    }

    @Test("W7, U9: an erased account's noted views are forgotten; a merged install's go to the lasting account")
    func accountEndMovesOrForgetsNotedViews() async throws {
        let store = MemoryUserCities()
        let recorder = Self.recorder(store)
        await recorder.note(userId: "gone", cityId: 1, at: Self.noon)
        await recorder.note(userId: "install", cityId: 2, at: Self.noon + 2)
        await recorder.note(userId: "member", cityId: 3, at: Self.noon + 1)
        recorder.forget(userId: "gone")
        recorder.move(from: "install", into: "member")
        try await recorder.flush()
        #expect(store.batches.count == 1 && store.batches[0].map(\.userId) == ["member"])
        #expect(store.recents(of: "member") == [2, 3])
    }

    @Test("W7: a graceful stop writes the views noted since the last flush")
    func gracefulStopFlushes() async throws {
        let store = MemoryUserCities()
        let recorder = Self.recorder(store)
        let group = ServiceGroup(
            services: [RecentViewsFlush(recorder: recorder, interval: .seconds(3_600))], gracefulShutdownSignals: [], logger: Self.logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await recorder.note(userId: "u1", cityId: 1, at: Self.noon)
            await recorder.note(userId: "u1", cityId: 2, at: Self.noon + 1)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(store.batches.count == 1 && store.recents(of: "u1") == [2, 1])
    }
}
