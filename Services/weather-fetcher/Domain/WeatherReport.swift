import Foundation

/// One provider answer for one city, in the platform's units (°C, hPa = mb, km/h, km, mm), whichever
/// provider it came from. Stored as the city's latest data and turned into API views and events.
struct WeatherReport: Codable, Sendable, Equatable {
    var provider: String
    var fetchedAt: Date
    var current: CurrentConditions
    /// Hour by hour, from the provider's first hour (local midnight today) onwards.
    var hourly: [HourlyForecast]
    /// Day by day from today (in the city's time zone).
    var daily: [DailyForecast]

    /// How reports are stored: dates as seconds since 1970, which reads several times faster than ISO 8601
    /// text on every city request. (Events keep ISO 8601: they are the contract with other services.)
    static var storageEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    static var storageDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}

struct CurrentConditions: Codable, Sendable, Equatable {
    var observedAt: Date
    var condition: WeatherCondition
    var description: String
    var temperatureC: Double
    var pressureMb: Double
    var windSpeedKmh: Double
    var windDirectionDegrees: Double
    var dewPointC: Double
    var humidityPercent: Double
    var visibilityKm: Double?
}

struct HourlyForecast: Codable, Sendable, Equatable {
    var time: Date
    var temperatureC: Double
    var condition: WeatherCondition
    var description: String
    var humidityPercent: Double?
    var pressureMb: Double?
    var windSpeedKmh: Double
    var windDirectionDegrees: Double?
    var windGustKmh: Double?
    var precipitationMm: Double
    var snowfallCm: Double
    var visibilityKm: Double?
}

struct DailyForecast: Codable, Sendable, Equatable {
    /// The local calendar day, `yyyy-MM-dd`.
    var date: String
    var maxTemperatureC: Double
    var minTemperatureC: Double
    var condition: WeatherCondition
    var description: String
    var sunrise: Date?
    var sunset: Date?
}
