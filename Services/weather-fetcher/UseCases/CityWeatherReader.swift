import Foundation
import Logging
import PlatformCore

/// Answers "what is the weather in this city" (W3, W6): the stored data when it is fresh, otherwise a
/// refresh on demand, bounded by a timeout; when the provider fails, the last known data, marked stale.
package struct CityWeatherReader: Sendable {
    package let store: any WeatherReports
    package let refresher: CityRefresher
    package let schedule: RefreshSchedule
    package let onDemandTimeout: Duration
    /// Refreshes on demand per client address and minute (`ON_DEMAND_REFRESHES_PER_MINUTE_PER_ADDRESS`): anyone may
    /// view a city, and a view of one whose data is old makes the provider work, out of the budget the scheduled
    /// refreshes share. Past it the caller gets the last known data, or 429 when there is none.
    package let onDemandQuota: WindowQuota

    package init(
        store: any WeatherReports, refresher: CityRefresher, schedule: RefreshSchedule, onDemandTimeout: Duration, onDemandQuota: WindowQuota
    ) {
        self.store = store
        self.refresher = refresher
        self.schedule = schedule
        self.onDemandTimeout = onDemandTimeout
        self.onDemandQuota = onDemandQuota
    }

    /// The address's on-demand refreshes are spent and the city has no data to answer with.
    package struct RefreshesSpent: Error, Equatable {
        package let retryAfter: Duration

        package init(retryAfter: Duration) {
            self.retryAfter = retryAfter
        }
    }

    /// `requestedBy`: the caller's client key (`RequestScope.clientKey`), whose share of on-demand refreshes a stale
    /// city spends.
    package func weather(for city: City, requestedBy caller: String, now: Date = Date()) async throws -> LatestWeather? {
        let latest = try await store.latest(cityId: city.id)
        if let latest, !needsRefresh(latest, now: now) { return latest }
        if let wait = onDemandQuota.take(for: caller, now: now) {
            guard let latest else { throw RefreshesSpent(retryAfter: wait) }
            return latest
        }
        await refreshWithinTimeout(city)
        return try await store.latest(cityId: city.id) ?? latest
    }

    /// Older than the refresh interval, and not a city whose refresh failed so recently that asking again
    /// would only add load to a provider in trouble.
    private func needsRefresh(_ latest: LatestWeather, now: Date) -> Bool {
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
