import Foundation
import PlatformEvents

/// One refreshed city: its report and the event that announces it.
package struct RefreshedCity: Sendable {
    package var city: City
    package var report: WeatherReport
    package var event: EventEnvelope<ForecastUpdated>

    package init(city: City, report: WeatherReport, event: EventEnvelope<ForecastUpdated>) {
        self.city = city
        self.report = report
        self.event = event
    }
}
