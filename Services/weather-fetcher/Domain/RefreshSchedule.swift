import Foundation

/// When the scheduler refreshes which cities (W6).
package struct RefreshSchedule: Sendable {
    package var interval: Duration
    package var tick: Duration
    package var batch: Int
    package var failureRetry: Duration
    package var viewedWithin: Duration
    package var mapPopulation: Int

    package init(interval: Duration, tick: Duration, batch: Int, failureRetry: Duration, viewedWithin: Duration, mapPopulation: Int) {
        self.interval = interval
        self.tick = tick
        self.batch = batch
        self.failureRetry = failureRetry
        self.viewedWithin = viewedWithin
        self.mapPopulation = mapPopulation
    }
}
