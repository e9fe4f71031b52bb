import Foundation
import NIOCore
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// WorldWeatherOnline's premium local weather API (https://www.worldweatheronline.com/weather-api/api/docs/),
/// the second provider (W6). Needs a key; one location per request (its bulk queries are a paid extra).
/// Local times in the answer are read in the city's catalogue time zone.
struct WorldWeatherOnlineProvider: WeatherProvider {
    let http: ProviderHTTPClient
    let baseURL: String
    let apiKey: Secret
    var name: String { "worldweatheronline" }
    var maxCitiesPerRequest: Int { 1 }

    func url(for city: City) -> String {
        ProviderURL.make(
            base: baseURL, path: "/premium/v1/weather.ashx",
            query: [
                URLQueryItem(name: "key", value: apiKey.value),
                URLQueryItem(name: "q", value: String(format: "%.4f,%.4f", city.latitude, city.longitude)),
                URLQueryItem(name: "format", value: "json"),
                URLQueryItem(name: "num_of_days", value: "6"),
                URLQueryItem(name: "tp", value: "1"),
                URLQueryItem(name: "cc", value: "yes"),
                URLQueryItem(name: "fx", value: "yes"),
                URLQueryItem(name: "mca", value: "no"),
                URLQueryItem(name: "show_comments", value: "no"),
            ])
    }

    func fetch(_ cities: [City]) async throws -> [Int: WeatherReport] {
        var reports: [Int: WeatherReport] = [:]
        for city in cities {
            let body = try await http.get(url(for: city))
            reports[city.id] = try decode(body, for: city, fetchedAt: Date())
        }
        return reports
    }

    func decode(_ body: ByteBuffer, for city: City, fetchedAt: Date) throws(ProviderError) -> WeatherReport {
        let answer: WorldWeatherOnlineResponse
        do {
            answer = try JSONDecoder().decode(WorldWeatherOnlineResponse.self, from: Data(buffer: body))
        } catch {
            throw .malformedResponse("not a WorldWeatherOnline answer: \(error)")
        }
        if let message = answer.data.error?.first?.msg { throw .rejected(message) }
        guard let clock = LocalClock(identifier: city.timeZone) else { throw .malformedResponse("unknown time zone \(city.timeZone)") }
        guard let current = answer.data.current_condition?.first, let days = answer.data.weather, !days.isEmpty else {
            throw .malformedResponse("no current_condition or weather")
        }
        var hours: [HourlyForecast] = []
        var daily: [DailyForecast] = []
        for day in days {
            for hour in day.hourly {
                hours.append(try self.hour(hour, day: day.date, clock: clock))
            }
            let (condition, description) = try Self.dominantCondition(of: day.hourly)
            daily.append(
                DailyForecast(
                    date: day.date, maxTemperatureC: try number(day.maxtempC, "maxtempC"),
                    minTemperatureC: try number(day.mintempC, "mintempC"), condition: condition, description: description,
                    sunrise: day.astronomy.first.flatMap { Self.localTime($0.sunrise, day: day.date, clock: clock) },
                    sunset: day.astronomy.first.flatMap { Self.localTime($0.sunset, day: day.date, clock: clock) }))
        }
        let code = try integer(current.weatherCode, "weatherCode")
        guard let condition = WeatherCondition.fromWorldWeatherOnline(code) else {
            throw .malformedResponse("unknown weatherCode \(code)")
        }
        let observedAt = current.localObsDateTime.flatMap { Self.localDateTime($0, clock: clock) } ?? fetchedAt
        // The current block has no dew point; the hour nearest the observation has.
        let nearestDew = try nearestDewPoint(days: days, to: observedAt, clock: clock)
        return WeatherReport(
            provider: name, fetchedAt: fetchedAt,
            current: CurrentConditions(
                observedAt: observedAt, condition: condition,
                description: current.weatherDesc.first?.value.trimmingCharacters(in: .whitespaces) ?? "",
                temperatureC: try number(current.temp_C, "temp_C"), pressureMb: try number(current.pressure, "pressure"),
                windSpeedKmh: try number(current.windspeedKmph, "windspeedKmph"),
                windDirectionDegrees: try number(current.winddirDegree, "winddirDegree"), dewPointC: nearestDew,
                humidityPercent: try number(current.humidity, "humidity"),
                visibilityKm: try number(current.visibility, "visibility")),
            hourly: hours, daily: daily)
    }

    private func hour(_ hour: WorldWeatherOnlineResponse.Hour, day: String, clock: LocalClock) throws(ProviderError) -> HourlyForecast {
        let hundreds = try integer(hour.time, "time")
        guard let time = clock.instant(day: day, hour: hundreds / 100, minute: hundreds % 100) else {
            throw .malformedResponse("bad date \(day) or time \(hour.time)")
        }
        let code = try integer(hour.weatherCode, "weatherCode")
        guard let condition = WeatherCondition.fromWorldWeatherOnline(code) else { throw .malformedResponse("unknown weatherCode \(code)") }
        let precipitation = try number(hour.precipMM, "precipMM")
        return HourlyForecast(
            time: time, temperatureC: try number(hour.tempC, "tempC"), condition: condition,
            description: hour.weatherDesc.first?.value.trimmingCharacters(in: .whitespaces) ?? "",
            humidityPercent: try number(hour.humidity, "humidity"), pressureMb: try number(hour.pressure, "pressure"),
            windSpeedKmh: try number(hour.windspeedKmph, "windspeedKmph"),
            windDirectionDegrees: try number(hour.winddirDegree, "winddirDegree"),
            windGustKmh: try hour.WindGustKmph.map { text throws(ProviderError) in try number(text, "WindGustKmph") },
            precipitationMm: precipitation,
            // WWO gives snow only per day; an hour of snow conditions counts its precipitation as snow at the
            // usual 1 mm of water to 1 cm of snow.
            snowfallCm: condition == .snow ? precipitation : 0,
            visibilityKm: try number(hour.visibility, "visibility"))
    }

    private func nearestDewPoint(days: [WorldWeatherOnlineResponse.Day], to instant: Date, clock: LocalClock) throws(ProviderError) -> Double {
        var best: (distance: TimeInterval, value: Double)?
        for day in days {
            for hour in day.hourly {
                let hundreds = try integer(hour.time, "time")
                guard let time = clock.instant(day: day.date, hour: hundreds / 100, minute: hundreds % 100) else { continue }
                let distance = abs(time.timeIntervalSince(instant))
                if let current = best, distance >= current.distance { continue }
                best = (distance, try number(hour.DewPointC, "DewPointC"))
            }
        }
        guard let best else { throw .malformedResponse("no hourly dew point") }
        return best.value
    }

    /// The day's most frequent condition, with the description of its first hour.
    private static func dominantCondition(of hours: [WorldWeatherOnlineResponse.Hour]) throws(ProviderError) -> (WeatherCondition, String) {
        var counts: [WeatherCondition: Int] = [:]
        var descriptions: [WeatherCondition: String] = [:]
        for hour in hours {
            guard let code = Int(hour.weatherCode), let condition = WeatherCondition.fromWorldWeatherOnline(code) else {
                throw .malformedResponse("unknown weatherCode \(hour.weatherCode)")
            }
            counts[condition, default: 0] += 1
            if descriptions[condition] == nil {
                descriptions[condition] = hour.weatherDesc.first?.value.trimmingCharacters(in: .whitespaces) ?? ""
            }
        }
        guard let top = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key.rawValue > $1.key.rawValue) }) else {
            throw .malformedResponse("a day without hours")
        }
        return (top.key, descriptions[top.key] ?? "")
    }

    /// `07:12 AM` on `day` in the city's zone.
    static func localTime(_ text: String, day: String, clock: LocalClock) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let (hour, minute) = hourMinute(parts[0]) else { return nil }
        switch parts[1].uppercased() {
        case "AM": return clock.instant(day: day, hour: hour % 12, minute: minute)
        case "PM": return clock.instant(day: day, hour: hour % 12 + 12, minute: minute)
        default: return nil
        }
    }

    /// `2024-01-05 10:15 AM` in the city's zone.
    static func localDateTime(_ text: String, clock: LocalClock) -> Date? {
        let parts = text.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        return localTime(String(parts[1]), day: String(parts[0]), clock: clock)
    }

    private static func hourMinute(_ text: Substring) -> (Int, Int)? {
        let pieces = text.split(separator: ":")
        guard pieces.count == 2, let hour = Int(pieces[0]), let minute = Int(pieces[1]), (0...12).contains(hour), (0..<60).contains(minute)
        else { return nil }
        return (hour, minute)
    }

    private func number(_ text: String, _ field: String) throws(ProviderError) -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else {
            throw .malformedResponse("\(field) is not a number: \(text)")
        }
        return value
    }

    private func integer(_ text: String, _ field: String) throws(ProviderError) -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw .malformedResponse("\(field) is not an integer: \(text)")
        }
        return value
    }
}
