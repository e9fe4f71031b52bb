import Foundation
import Logging
import Metrics
import PlatformEvents

/// Fetches cities from the provider in batches and stores each report with its event (W6). Failures are
/// recorded per city, so the scheduler retries them sooner and readers see the old data as stale.
package struct CityRefresher: Sendable {
    package let provider: any WeatherProvider
    package let store: any WeatherReports
    package let schedule: RefreshSchedule
    /// Topic name of forecast events (tests use their own).
    package let topic: String
    package let logger: Logger

    package init(provider: any WeatherProvider, store: any WeatherReports, schedule: RefreshSchedule, topic: String, logger: Logger) {
        self.provider = provider
        self.store = store
        self.schedule = schedule
        self.topic = topic
        self.logger = logger
    }

    package struct Outcome: Sendable, Equatable {
        package var refreshed = 0
        package var failed = 0

        package init(refreshed: Int = 0, failed: Int = 0) {
            self.refreshed = refreshed
            self.failed = failed
        }
    }

    /// The next provider batch is fetched while the current one is written: the provider's answer and its
    /// decoding overlap the encoding and the database's work instead of waiting for them. The provider still
    /// sees one request at a time.
    package func refresh(_ cities: [City]) async -> Outcome {
        var outcome = Outcome()
        let size = max(1, provider.maxCitiesPerRequest)
        let batches = stride(from: 0, to: cities.count, by: size).map { Array(cities[$0..<min($0 + size, cities.count)]) }
        let provider = self.provider
        var prefetch = batches.first.map { first in Task { try await provider.fetch(first) } }
        defer { prefetch?.cancel() }
        for (index, batch) in batches.enumerated() {
            guard let fetching = prefetch, !Task.isCancelled else { break }
            let answer = await withTaskCancellationHandler {
                await fetching.result
            } onCancel: {
                fetching.cancel()
            }
            // One request at a time still reaches the provider: the next starts once this one answered.
            prefetch = index + 1 < batches.count ? Task { [next = batches[index + 1]] in try await provider.fetch(next) } : nil
            do {
                let reports = try answer.get()
                let refreshed = batch.compactMap { city in
                    reports[city.id].map {
                        RefreshedCity(city: city, report: $0, event: ForecastEventFactory.event(for: city, report: $0))
                    }
                }
                try await store.save(refreshed, topic: topic)
                outcome.refreshed += refreshed.count
                let missing = batch.filter { reports[$0.id] == nil }
                if !missing.isEmpty {
                    outcome.failed += missing.count
                    try await fail(missing, MissingFromAnswer())
                }
            } catch is CancellationError {
                break  // shutting down, or an on-demand caller gave up: not the provider's failure
            } catch {
                outcome.failed += batch.count
                try? await fail(batch, error)
            }
        }
        Counter(label: "weather_refreshed_cities_total", dimensions: [("provider", provider.name)]).increment(by: outcome.refreshed)
        Counter(label: "weather_refresh_failures_total", dimensions: [("provider", provider.name)]).increment(by: outcome.failed)
        return outcome
    }

    private func fail(_ cities: [City], _ error: any Error) async throws {
        logger.warning(
            "weather refresh failed", metadata: ["cities": "\(cities.map(\.id))", "error": "\(error)", "provider": "\(provider.name)"])
        try await store.recordFailure(
            cityIds: cities.map(\.id), error: String(describing: error), retryAfter: schedule.failureRetry, cadence: schedule.interval)
    }
}

/// Cities the provider's answer left out: recorded as the provider's failure, so they are retried sooner.
package struct MissingFromAnswer: Error, CustomStringConvertible {
    package var description: String { "provider response malformed: no data for these cities in the answer" }
}
