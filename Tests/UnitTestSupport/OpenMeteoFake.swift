import Foundation

/// Answers in Open-Meteo's forecast format for a fake provider server (tests and the bench).
public enum OpenMeteoFake {
    /// Open-Meteo's answer for locations given as (latitude, longitude, time zone), built the way the API
    /// builds it for `timeformat=unixtime&forecast_days=6`: hourly from local midnight today, daily times at
    /// local midnight. An object for one location, an array for several. `temperature` sets the current
    /// temperature (and shifts the hourly ones); `codes` are the WMO weather codes the hours and days cycle through
    /// (the default has a thunderstorm, 95, every sixth hour).
    public static func answer(
        for locations: [(latitude: Double, longitude: Double, timeZone: String)], now: Date = Date(), temperature: Double = 12.3,
        codes: [Int] = [0, 1, 2, 3, 61, 95]
    ) -> String {
        let objects = locations.map { Self.location($0, now: now, temperature: temperature, codes: codes) }
        let json: Any = objects.count == 1 ? objects[0] : objects
        return String(decoding: try! JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Answers an Open-Meteo forecast request as recorded in `received.query`.
    public static func answer(toQuery query: [String: String], temperature: Double = 12.3) -> String {
        let latitudes = (query["latitude"] ?? "").split(separator: ",").compactMap { Double($0) }
        let longitudes = (query["longitude"] ?? "").split(separator: ",").compactMap { Double($0) }
        let zones = (query["timezone"] ?? "").split(separator: ",").map(String.init)
        let locations = zip(zip(latitudes, longitudes), zones).map { ($0.0, $0.1, $1) }
        return answer(for: locations, temperature: temperature)
    }

    private static func location(
        _ location: (latitude: Double, longitude: Double, timeZone: String), now: Date, temperature: Double, codes: [Int]
    ) -> [String: Any] {
        let zone = TimeZone(identifier: location.timeZone)!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let midnight = calendar.startOfDay(for: now)
        let hours = (0..<(6 * 24)).map { calendar.date(byAdding: .hour, value: $0, to: midnight)! }
        let days = (0..<6).map { calendar.date(byAdding: .day, value: $0, to: midnight)! }
        let unix = { (date: Date) in Int(date.timeIntervalSince1970) }
        let currentUnits: [String: Any] = [
            "time": "unixtime", "interval": "seconds", "temperature_2m": "°C", "relative_humidity_2m": "%",
            "dew_point_2m": "°C", "weather_code": "wmo code", "pressure_msl": "hPa", "wind_speed_10m": "km/h",
            "wind_direction_10m": "°", "visibility": "m",
        ]
        let current: [String: Any] = [
            "time": unix(now) / 900 * 900, "interval": 900, "temperature_2m": temperature, "relative_humidity_2m": 71,
            "dew_point_2m": 5.2, "weather_code": 2, "pressure_msl": 1015.4, "wind_speed_10m": 11.2,
            "wind_direction_10m": 230, "visibility": 10000.0,
        ]
        let indices = Array(hours.indices)
        var hourly: [String: Any] = ["time": hours.map(unix)]
        hourly["temperature_2m"] = indices.map { temperature - 2 + Double($0 % 24) / 4 }
        hourly["weather_code"] = indices.map { codes[$0 % codes.count] }
        hourly["relative_humidity_2m"] = indices.map { _ in 70 }
        hourly["pressure_msl"] = indices.map { _ in 1014.0 }
        hourly["wind_speed_10m"] = indices.map { Double($0 % 30) }
        hourly["wind_direction_10m"] = indices.map { _ in 270 }
        hourly["wind_gusts_10m"] = indices.map { Double($0 % 30) * 1.5 }
        hourly["precipitation"] = indices.map { $0 % 6 == 4 ? 1.2 : 0.0 }
        hourly["snowfall"] = indices.map { _ in 0.0 }
        // The model's far end has no visibility: Open-Meteo sends nulls.
        hourly["visibility"] = indices.map { index -> Any in index < 96 ? 24140.0 : NSNull() }
        let dayIndices = Array(days.indices)
        var daily: [String: Any] = ["time": days.map(unix)]
        daily["weather_code"] = dayIndices.map { codes[$0 % codes.count] }
        daily["temperature_2m_max"] = dayIndices.map { temperature + 3 + Double($0) }
        daily["temperature_2m_min"] = dayIndices.map { temperature - 4 + Double($0) }
        daily["sunrise"] = days.map { unix($0) + 7 * 3600 + 12 * 60 }
        daily["sunset"] = days.map { unix($0) + 16 * 3600 + 5 * 60 }
        var object: [String: Any] = ["latitude": location.latitude, "longitude": location.longitude]
        object["generationtime_ms"] = 0.123
        object["utc_offset_seconds"] = zone.secondsFromGMT(for: now)
        object["timezone"] = location.timeZone
        object["timezone_abbreviation"] = zone.abbreviation(for: now) ?? ""
        object["elevation"] = 38.0
        object["current_units"] = currentUnits
        object["current"] = current
        object["hourly_units"] = ["time": "unixtime", "temperature_2m": "°C"]
        object["hourly"] = hourly
        object["daily_units"] = ["time": "unixtime", "temperature_2m_max": "°C"]
        object["daily"] = daily
        return object
    }
}
