import Foundation
import PlatformEvents

/// One provider answer for one city, in the platform's units (°C, hPa = mb, km/h, km, mm), whichever
/// provider it came from. Stored as the city's latest data and turned into API views and events.
package struct WeatherReport: Codable, Sendable, Equatable {
    package var provider: String
    package var fetchedAt: Date
    package var current: CurrentConditions
    /// Hour by hour, from the provider's first hour (local midnight today) onwards.
    package var hourly: [HourlyForecast]
    /// Day by day from today (in the city's time zone).
    package var daily: [DailyForecast]

    package init(provider: String, fetchedAt: Date, current: CurrentConditions, hourly: [HourlyForecast], daily: [DailyForecast]) {
        self.provider = provider
        self.fetchedAt = fetchedAt
        self.current = current
        self.hourly = hourly
        self.daily = daily
    }

    /// How reports are stored: dates as seconds since 1970, which reads several times faster than ISO 8601
    /// text on every city request. (Events keep ISO 8601: they are the contract with other services.)
    package static var storageEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    package static var storageDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}

package struct CurrentConditions: Codable, Sendable, Equatable {
    package var observedAt: Date
    package var condition: WeatherCondition
    package var description: String
    package var temperatureC: Double
    package var pressureMb: Double
    package var windSpeedKmh: Double
    package var windDirectionDegrees: Double
    package var dewPointC: Double
    package var humidityPercent: Double
    package var visibilityKm: Double?

    package init(
        observedAt: Date, condition: WeatherCondition, description: String, temperatureC: Double, pressureMb: Double, windSpeedKmh: Double,
        windDirectionDegrees: Double, dewPointC: Double, humidityPercent: Double, visibilityKm: Double? = nil
    ) {
        self.observedAt = observedAt
        self.condition = condition
        self.description = description
        self.temperatureC = temperatureC
        self.pressureMb = pressureMb
        self.windSpeedKmh = windSpeedKmh
        self.windDirectionDegrees = windDirectionDegrees
        self.dewPointC = dewPointC
        self.humidityPercent = humidityPercent
        self.visibilityKm = visibilityKm
    }
}

package struct HourlyForecast: Codable, Sendable, Equatable {
    package var time: Date
    package var temperatureC: Double
    package var condition: WeatherCondition
    package var description: String
    package var humidityPercent: Double?
    package var pressureMb: Double?
    package var windSpeedKmh: Double
    package var windDirectionDegrees: Double?
    package var windGustKmh: Double?
    package var precipitationMm: Double
    package var snowfallCm: Double
    package var visibilityKm: Double?

    package init(
        time: Date, temperatureC: Double, condition: WeatherCondition, description: String, humidityPercent: Double? = nil, pressureMb: Double? = nil,
        windSpeedKmh: Double, windDirectionDegrees: Double? = nil, windGustKmh: Double? = nil, precipitationMm: Double, snowfallCm: Double,
        visibilityKm: Double? = nil
    ) {
        self.time = time
        self.temperatureC = temperatureC
        self.condition = condition
        self.description = description
        self.humidityPercent = humidityPercent
        self.pressureMb = pressureMb
        self.windSpeedKmh = windSpeedKmh
        self.windDirectionDegrees = windDirectionDegrees
        self.windGustKmh = windGustKmh
        self.precipitationMm = precipitationMm
        self.snowfallCm = snowfallCm
        self.visibilityKm = visibilityKm
    }
}

package struct DailyForecast: Codable, Sendable, Equatable {
    /// The local calendar day, `yyyy-MM-dd`.
    package var date: String
    package var maxTemperatureC: Double
    package var minTemperatureC: Double
    package var condition: WeatherCondition
    package var description: String
    package var sunrise: Date?
    package var sunset: Date?

    package init(
        date: String, maxTemperatureC: Double, minTemperatureC: Double, condition: WeatherCondition, description: String, sunrise: Date? = nil,
        sunset: Date? = nil
    ) {
        self.date = date
        self.maxTemperatureC = maxTemperatureC
        self.minTemperatureC = minTemperatureC
        self.condition = condition
        self.description = description
        self.sunrise = sunrise
        self.sunset = sunset
    }
}
