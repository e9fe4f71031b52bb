import Foundation
import Logging
import PlatformHTTP

/// Answers "what is the weather in this city" (W3, W6): the stored data when it is fresh, otherwise a
/// refresh on demand, bounded by a timeout; when the provider fails, the last known data, marked stale.
struct CityWeatherReader: Sendable {
    let store: any WeatherReports
    let refresher: CityRefresher
    let schedule: RefreshSchedule
    let onDemandTimeout: Duration

    func weather(for city: City, now: Date = Date()) async throws -> WeatherStore.Latest? {
        let latest = try await store.latest(cityId: city.id)
        if let latest, !needsRefresh(latest, now: now) { return latest }
        await refreshWithinTimeout(city)
        return try await store.latest(cityId: city.id) ?? latest
    }

    /// Older than the refresh interval, and not a city whose refresh failed so recently that asking again
    /// would only add load to a provider in trouble.
    private func needsRefresh(_ latest: WeatherStore.Latest, now: Date) -> Bool {
        guard now.timeIntervalSince(latest.report.fetchedAt) > schedule.interval.seconds else { return false }
        if let failed = latest.failedSince, now.timeIntervalSince(failed) < schedule.failureRetry.seconds { return false }
        return true
    }

    private func refreshWithinTimeout(_ city: City) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = await refresher.refresh([city]) }
            group.addTask { try? await Task.sleep(for: onDemandTimeout) }
            await group.next()
            group.cancelAll()
        }
    }
}
