import Foundation
import PlatformCore

/// The stored form of a report written by hand: the same JSON `WeatherReport.storageEncoder` writes (dates as
/// seconds since 1970, a nil optional left out), which `storageDecoder` reads back, at a fraction of
/// `JSONEncoder`'s cost; a refresh stores every city's report every cadence.
extension WeatherReport {
    func storedJSON() throws -> String {
        var json = JSONWriter(capacity: 256 + hourly.count * 260 + daily.count * 160)
        json.beginObject()
        json.member("provider", provider)
        try json.member("fetchedAt", fetchedAt.timeIntervalSince1970)
        json.key("current")
        try current.write(to: &json)
        json.key("hourly")
        json.beginArray()
        for hour in hourly { try hour.write(to: &json) }
        json.endArray()
        json.key("daily")
        json.beginArray()
        for day in daily { try day.write(to: &json) }
        json.endArray()
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }
}

extension CurrentConditions {
    fileprivate func write(to json: inout JSONWriter) throws {
        json.beginObject()
        try json.member("observedAt", observedAt.timeIntervalSince1970)
        json.member("condition", condition.rawValue)
        json.member("description", description)
        try json.member("temperatureC", temperatureC)
        try json.member("pressureMb", pressureMb)
        try json.member("windSpeedKmh", windSpeedKmh)
        try json.member("windDirectionDegrees", windDirectionDegrees)
        try json.member("dewPointC", dewPointC)
        try json.member("humidityPercent", humidityPercent)
        try json.member("visibilityKm", visibilityKm)
        json.endObject()
    }
}

extension HourlyForecast {
    fileprivate func write(to json: inout JSONWriter) throws {
        json.beginObject()
        try json.member("time", time.timeIntervalSince1970)
        try json.member("temperatureC", temperatureC)
        json.member("condition", condition.rawValue)
        json.member("description", description)
        try json.member("humidityPercent", humidityPercent)
        try json.member("pressureMb", pressureMb)
        try json.member("windSpeedKmh", windSpeedKmh)
        try json.member("windDirectionDegrees", windDirectionDegrees)
        try json.member("windGustKmh", windGustKmh)
        try json.member("precipitationMm", precipitationMm)
        try json.member("snowfallCm", snowfallCm)
        try json.member("visibilityKm", visibilityKm)
        json.endObject()
    }
}

extension DailyForecast {
    fileprivate func write(to json: inout JSONWriter) throws {
        json.beginObject()
        json.member("date", date)
        try json.member("maxTemperatureC", maxTemperatureC)
        try json.member("minTemperatureC", minTemperatureC)
        json.member("condition", condition.rawValue)
        json.member("description", description)
        try json.member("sunrise", sunrise?.timeIntervalSince1970)
        try json.member("sunset", sunset?.timeIntervalSince1970)
        json.endObject()
    }
}
