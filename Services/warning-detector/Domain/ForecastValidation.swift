import Foundation
import PlatformEvents

/// The values a forecast may carry before rules run on it. Events come from outside this service: a value no
/// weather can have (a temperature of 1e300, a negative rainfall, an hour a century away) is a permanent error
/// that dead-letters the event with the field named, never a trap or a warning nobody could believe.
package enum ForecastValidation {
    package static let temperatureC = -100.0...70.0
    package static let speedKmh = 0.0...600.0
    package static let precipitationMm = 0.0...1_000.0
    package static let snowfallCm = 0.0...500.0
    package static let visibilityKm = 0.0...1_000.0
    package static let maxHours = 24 * 31
    /// How far an hour may lie from the time the forecast was fetched.
    package static let hourWindow: TimeInterval = 40 * 86_400
    package static let maxTextLength = 500

    package static func validate(_ forecast: ForecastUpdated) throws(EventDecodingError) {
        let city = forecast.city
        try check(city.id > 0, "city.id \(city.id) is not a positive id")
        try check((-90.0...90.0).contains(city.latitude), "city.latitude \(city.latitude) is outside -90...90")
        try check((-180.0...180.0).contains(city.longitude), "city.longitude \(city.longitude) is outside -180...180")
        try check(TimeZone(identifier: city.timeZone) != nil, "city.timeZone \(city.timeZone) is not an IANA time zone")
        for (name, text) in [("city.name", city.name), ("city.region", city.region), ("city.country", city.country)] {
            try check(text.utf8.count <= maxTextLength, "\(name) is longer than \(maxTextLength) bytes")
        }
        try EventDecodingError.checkStorable(forecast.fetchedAt, field: "fetchedAt")
        try check(
            temperatureC.contains(forecast.currentTemperatureC), "currentTemperatureC \(forecast.currentTemperatureC) is outside \(temperatureC)")
        try check(forecast.hours.count <= maxHours, "\(forecast.hours.count) hours is more than \(maxHours)")
        for (index, hour) in forecast.hours.enumerated() {
            try check(
                abs(hour.time.timeIntervalSince(forecast.fetchedAt)) <= hourWindow,
                "hours[\(index)].time \(hour.time) is more than 40 days from fetchedAt")
            try check(temperatureC.contains(hour.temperatureC), "hours[\(index)].temperatureC \(hour.temperatureC) is outside \(temperatureC)")
            try check(speedKmh.contains(hour.windSpeedKmh), "hours[\(index)].windSpeedKmh \(hour.windSpeedKmh) is outside \(speedKmh)")
            try check(hour.windGustKmh.map(speedKmh.contains) ?? true, "hours[\(index)].windGustKmh is outside \(speedKmh)")
            try check(
                precipitationMm.contains(hour.precipitationMm),
                "hours[\(index)].precipitationMm \(hour.precipitationMm) is outside \(precipitationMm)")
            try check(snowfallCm.contains(hour.snowfallCm), "hours[\(index)].snowfallCm \(hour.snowfallCm) is outside \(snowfallCm)")
            try check(hour.visibilityKm.map(visibilityKm.contains) ?? true, "hours[\(index)].visibilityKm is outside \(visibilityKm)")
        }
    }

    private static func check(_ condition: Bool, _ reason: @autoclosure () -> String) throws(EventDecodingError) {
        guard condition else { throw EventDecodingError(reason: "forecast rejected: \(reason())") }
    }
}
