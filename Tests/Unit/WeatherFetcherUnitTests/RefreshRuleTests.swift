import Foundation
import Logging
import PlatformCore
import PlatformHTTP
import Synchronization
import Testing
import WeatherFetcherFixtures

@testable import WeatherFetcher

/// The refresh's and the reader's rules (W3, W6) over a memory store and a scripted provider: batches of the
/// provider's size, a city missing from an answer recorded as failed, the stored data served while fresh, a
/// refresh on demand when stale, none right after a failure, and the last known data when the provider fails.
@Suite("weather-fetcher: refresh and on-demand reading rules")
struct RefreshRuleTests {
    final class MemoryReports: WeatherReports {
        private let state = Mutex<(latest: [Int: LatestWeather], saved: [[Int]], failed: [Int])>(([:], [], []))

        var saved: [[Int]] { state.withLock { $0.saved } }
        var failed: [Int] { state.withLock { $0.failed } }

        func put(_ latest: LatestWeather, for cityId: Int) { state.withLock { $0.latest[cityId] = latest } }

        func latest(cityId: Int) async throws -> LatestWeather? { state.withLock { $0.latest[cityId] } }

        func save(_ batch: [RefreshedCity], topic: String) async throws {
            state.withLock { state in
                state.saved.append(batch.map(\.city.id))
                for refreshed in batch { state.latest[refreshed.city.id] = .init(report: refreshed.report) }
            }
        }

        func recordFailure(cityIds: [Int], error: String, retryAfter: Duration, cadence: Duration) async throws {
            state.withLock { $0.failed += cityIds }
        }
    }

    /// Answers with a report for every city it was asked for, except `omitted`; fails when `failing`.
    final class ScriptedProvider: WeatherProvider {
        let name = "scripted"
        let maxCitiesPerRequest: Int
        let fetchedAt: Date
        let omitted: Set<Int>
        let failing: Bool
        private let requests = Mutex<[[Int]]>([])

        init(maxCitiesPerRequest: Int, fetchedAt: Date, omitted: Set<Int> = [], failing: Bool = false) {
            self.maxCitiesPerRequest = maxCitiesPerRequest
            self.fetchedAt = fetchedAt
            self.omitted = omitted
            self.failing = failing
        }

        var asked: [[Int]] { requests.withLock { $0 } }

        func fetch(_ cities: [City]) async throws -> [Int: WeatherReport] {
            requests.withLock { $0.append(cities.map(\.id)) }
            if failing { throw ProviderError.malformedResponse("down") }
            var reports: [Int: WeatherReport] = [:]
            for city in cities where !omitted.contains(city.id) {
                reports[city.id] = WeatherPresentationTests.report(now: fetchedAt, city: city)
            }
            return reports
        }
    }

    static let now = WeatherPresentationTests.afternoon
    static let schedule = RefreshSchedule(
        interval: .seconds(600), tick: .seconds(5), batch: 100, failureRetry: .seconds(60), viewedWithin: .seconds(3_600), mapPopulation: 0)

    static func city(_ id: Int) -> City {
        var city = WeatherFixtures.berlin
        city.id = id
        return city
    }

    static func refresher(_ provider: ScriptedProvider, _ store: MemoryReports) -> CityRefresher {
        CityRefresher(provider: provider, store: store, schedule: schedule, topic: "test.forecasts", logger: Logger(label: "test"))
    }

    @Test("W6: cities go to the provider in batches of its size; one missing from an answer is recorded as failed")
    func batches() async {
        let store = MemoryReports()
        let provider = ScriptedProvider(maxCitiesPerRequest: 2, fetchedAt: Self.now, omitted: [3])
        let outcome = await Self.refresher(provider, store).refresh((1...5).map(Self.city))
        #expect(provider.asked == [[1, 2], [3, 4], [5]])
        #expect(store.saved == [[1, 2], [4], [5]] && store.failed == [3])
        #expect(outcome == .init(refreshed: 4, failed: 1))
        let down = ScriptedProvider(maxCitiesPerRequest: 2, fetchedAt: Self.now, failing: true)
        #expect(await Self.refresher(down, store).refresh((6...8).map(Self.city)) == .init(refreshed: 0, failed: 3))
        #expect(store.failed == [3, 6, 7, 8])
    }

    @Test("W3, W6: fresh data is served as stored; stale data is refreshed on demand, but not just after a failure")
    func onDemand() async throws {
        let store = MemoryReports()
        let provider = ScriptedProvider(maxCitiesPerRequest: 10, fetchedAt: Self.now)
        let reader = CityWeatherReader(
            store: store, refresher: Self.refresher(provider, store), schedule: Self.schedule, onDemandTimeout: .seconds(5),
            onDemandQuota: WindowQuota(limit: 100))
        let berlin = Self.city(1)
        store.put(.init(report: WeatherPresentationTests.report(now: Self.now.addingTimeInterval(-300), city: berlin)), for: 1)
        _ = try await reader.weather(for: berlin, requestedBy: "203.0.113.7", now: Self.now)
        #expect(provider.asked.isEmpty, "five minutes old is fresh")
        store.put(
            .init(
                report: WeatherPresentationTests.report(now: Self.now.addingTimeInterval(-900), city: berlin),
                failedSince: Self.now.addingTimeInterval(-30)),
            for: 1)
        _ = try await reader.weather(for: berlin, requestedBy: "203.0.113.7", now: Self.now)
        #expect(provider.asked.isEmpty, "a failure thirty seconds ago is not asked again")
        store.put(.init(report: WeatherPresentationTests.report(now: Self.now.addingTimeInterval(-900), city: berlin)), for: 1)
        let refreshed = try await reader.weather(for: berlin, requestedBy: "203.0.113.7", now: Self.now)
        #expect(provider.asked == [[1]] && refreshed?.report.fetchedAt == Self.now)
        // The provider fails: the last known data is still the answer.
        let failing = MemoryReports()
        failing.put(.init(report: WeatherPresentationTests.report(now: Self.now.addingTimeInterval(-900), city: berlin)), for: 1)
        let down = ScriptedProvider(maxCitiesPerRequest: 10, fetchedAt: Self.now, failing: true)
        let stale = CityWeatherReader(
            store: failing, refresher: Self.refresher(down, failing), schedule: Self.schedule, onDemandTimeout: .seconds(5),
            onDemandQuota: WindowQuota(limit: 100))
        #expect(
            try await stale.weather(for: berlin, requestedBy: "203.0.113.7", now: Self.now)?.report.fetchedAt == Self.now.addingTimeInterval(-900))
        #expect(failing.failed == [1])
    }

    @Test("W3: data is stale after a failed refresh or past the schedule's limit, saying why; its age in whole minutes")
    func freshness() {
        let fetched = Self.now.addingTimeInterval(-150)
        let fresh = Freshness(fetchedAt: fetched, failedSince: nil, now: Self.now, staleAfter: .seconds(2_700))
        #expect(fresh == Freshness(fetchedAt: fetched, failedSince: nil, now: Self.now, staleAfter: .seconds(151)))
        #expect(fresh.minutesAgo == 2 && !fresh.isStale)
        let old = Freshness(fetchedAt: fetched, failedSince: nil, now: Self.now, staleAfter: .seconds(149))
        #expect(old.staleReason == "the data is older than the refresh schedule allows")
        let failed = Freshness(fetchedAt: fetched, failedSince: Self.now, now: Self.now, staleAfter: .seconds(2_700))
        #expect(failed.staleReason == "the provider did not answer the last refresh; showing the last known data")
        #expect(Freshness(fetchedAt: Self.now.addingTimeInterval(60), failedSince: nil, now: Self.now, staleAfter: .seconds(1)).minutesAgo == 0)
    }

    @Test("W3, X3: past the address's on-demand refreshes a stale city answers its last data, one without data 429; fresh data costs none")
    func onDemandRefreshesPerAddress() async throws {
        let store = MemoryReports()
        let provider = ScriptedProvider(maxCitiesPerRequest: 10, fetchedAt: Self.now)
        let reader = CityWeatherReader(
            store: store, refresher: Self.refresher(provider, store), schedule: Self.schedule, onDemandTimeout: .seconds(5),
            onDemandQuota: WindowQuota(limit: 1))
        let (berlin, bern, oslo) = (Self.city(1), Self.city(2), Self.city(3))
        store.put(.init(report: WeatherPresentationTests.report(now: Self.now.addingTimeInterval(-300), city: berlin)), for: 1)
        let old = Self.now.addingTimeInterval(-900)
        store.put(.init(report: WeatherPresentationTests.report(now: old, city: bern)), for: 2)
        // Fresh data spends nothing; the address's one refresh goes to the stale city.
        _ = try await reader.weather(for: berlin, requestedBy: "203.0.113.7", now: Self.now)
        #expect(try await reader.weather(for: bern, requestedBy: "203.0.113.7", now: Self.now)?.report.fetchedAt == Self.now)
        store.put(.init(report: WeatherPresentationTests.report(now: old, city: bern)), for: 2)
        #expect(try await reader.weather(for: bern, requestedBy: "203.0.113.7", now: Self.now)?.report.fetchedAt == old, "the last data")
        await #expect(throws: CityWeatherReader.RefreshesSpent.self) {
            _ = try await reader.weather(for: oslo, requestedBy: "203.0.113.7", now: Self.now)
        }
        #expect(provider.asked == [[2]], "one provider call for the address")
        // Another address has its own share.
        #expect(try await reader.weather(for: oslo, requestedBy: "198.51.100.4", now: Self.now)?.report.fetchedAt == Self.now)
        #expect(provider.asked == [[2], [3]])
    }
}
