import Foundation
import PlatformEvents

/// Cities and forecasts for the warning tests (unit and service): hours built from a baseline with a few values
/// overridden, in the shape of `weather.forecasts` events.
public enum WarningFixtures {
    public static let berlin = ForecastCity(
        id: 2_950_159, name: "Berlin", region: "Land Berlin", countryCode: "DE", country: "Germany", latitude: 52.52437,
        longitude: 13.41053, timeZone: "Europe/Berlin")
    public static let suva = ForecastCity(
        id: 2_198_148, name: "Suva", region: "Central", countryCode: "FJ", country: "Fiji", latitude: -18.14161, longitude: 178.44149,
        timeZone: "Pacific/Fiji")

    /// A mild hour: nothing in it crosses a default threshold.
    public static func hour(_ time: Date) -> ForecastHour {
        ForecastHour(
            time: time, temperatureC: 18, condition: .partlyCloudy, description: "Partly cloudy", windSpeedKmh: 12,
            windGustKmh: 20, precipitationMm: 0, snowfallCm: 0, visibilityKm: 20)
    }

    /// The whole hour at or before `date`.
    public static func hourStart(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 3_600).rounded(.down) * 3_600)
    }

    /// 48 hours from the hour in progress at `fetchedAt`; `change` edits hour `index` (0 = the hour in progress).
    public static func forecast(
        _ city: ForecastCity = berlin, fetchedAt: Date = Date(), temperature: Double = 18, condition: WeatherCondition = .partlyCloudy,
        _ change: (Int, inout ForecastHour) -> Void = { _, _ in }
    ) -> ForecastUpdated {
        let first = hourStart(fetchedAt)
        let hours = (0..<48).map { index -> ForecastHour in
            var hour = hour(first.addingTimeInterval(Double(index) * 3_600))
            change(index, &hour)
            return hour
        }
        return ForecastUpdated(
            city: city, provider: "open-meteo", fetchedAt: fetchedAt, currentTemperatureC: temperature, currentCondition: condition,
            currentDescription: "Partly cloudy", hours: hours)
    }

    /// Heat from hour `from` to hour `to` (inclusive) at `celsius`.
    public static func heat(
        _ celsius: Double, hours range: ClosedRange<Int>, city: ForecastCity = berlin, fetchedAt: Date = Date()
    ) -> ForecastUpdated {
        forecast(city, fetchedAt: fetchedAt) { index, hour in
            if range.contains(index) { hour.temperatureC = celsius }
        }
    }
}
