import Foundation
import PlatformCore
import PlatformEvents

/// A forecast's highest and lowest temperature per local day of its city (A5: the daily message quotes the
/// day's forecast, not the temperature of the moment the forecast was fetched).
package struct DailyExtremes: Codable, Sendable, Equatable {
    package var date: String
    package var maxC: Double
    package var minC: Double

    package init(date: String, maxC: Double, minC: Double) {
        self.date = date
        self.maxC = maxC
        self.minC = minC
    }

    /// Per local date (`yyyy-MM-dd` in the city's zone), in order; none for an unknown zone.
    package static func of(_ forecast: ForecastUpdated) -> [DailyExtremes] {
        guard let zone = TimeZone(identifier: forecast.city.timeZone) else { return [] }
        var days: [String: DailyExtremes] = [:]
        var order: [String] = []
        for hour in forecast.hours where hour.temperatureC.isFinite {
            let date = CivilDate(clamping: hour.time, in: zone).description
            if var day = days[date] {
                day.maxC = max(day.maxC, hour.temperatureC)
                day.minC = min(day.minC, hour.temperatureC)
                days[date] = day
            } else {
                days[date] = DailyExtremes(date: date, maxC: hour.temperatureC, minC: hour.temperatureC)
                order.append(date)
            }
        }
        return order.compactMap { days[$0] }
    }
}
