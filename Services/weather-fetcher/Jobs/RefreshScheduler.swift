import Foundation
import Logging
import PlatformCore
import PlatformHTTP
import ServiceLifecycle
import Tracing

/// Keeps tracked cities fresh (W6): every tick it claims the due ones (viewed lately, favourited, or big
/// enough for the map) and refreshes them. Claims make several instances share the work, never double it.
struct RefreshScheduler: Service {
    let refresher: CityRefresher
    let store: WeatherStore
    let schedule: RefreshSchedule
    let startGate: StartGate
    let logger: Logger

    func run() async throws {
        await runPeriodically(startGate: startGate, interval: schedule.tick) { await runOnce() }
    }

    /// Claims and refreshes one batch; true when the batch was full, so more may be due right away.
    @discardableResult
    func runOnce() async -> Bool {
        do {
            let due = try await store.claimDueCities(
                limit: schedule.batch, cadence: schedule.interval, viewedWithin: schedule.viewedWithin,
                mapPopulation: schedule.mapPopulation, claimFor: min(schedule.interval, .seconds(300)))
            guard !due.isEmpty else { return false }
            let started = ContinuousClock.now
            // A trace of its own: the provider calls, and the forecast events (with their warnings and pushes in
            // warning-detector) continue it.
            let outcome = await withSpan("refresh due cities", context: .topLevel, ofKind: .internal) { span in
                span.attributes["weather.cities"] = due.count
                return await refresher.refresh(due)
            }
            logger.info(
                "refreshed due cities",
                metadata: [
                    "claimed": "\(due.count)", "refreshed": "\(outcome.refreshed)", "failed": "\(outcome.failed)",
                    "took": "\(ContinuousClock.now - started)",
                ])
            return due.count == schedule.batch
        } catch {
            if Task.isCancelled { return false }
            logger.warning("refresh scheduling failed", metadata: ["error": "\(String(reflecting: error))"])
            return false
        }
    }
}
