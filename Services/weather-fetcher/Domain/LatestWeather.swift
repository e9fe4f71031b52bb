import Foundation

/// The latest data of a city with what the API needs to call it stale.
package struct LatestWeather: Sendable {
    package var report: WeatherReport
    /// When the last refresh attempt after this data failed, if it did.
    package var failedSince: Date?
    package var lastError: String?

    package init(report: WeatherReport, failedSince: Date? = nil, lastError: String? = nil) {
        self.report = report
        self.failedSince = failedSince
        self.lastError = lastError
    }
}
