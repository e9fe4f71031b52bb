import Foundation
import NIOCore
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// Open-Meteo's forecast API (https://open-meteo.com/en/docs), the default provider (W6): no key, many
/// locations per request (comma-separated coordinates, an array in the answer, in request order).
struct OpenMeteoProvider: WeatherProvider {
    let http: ProviderHTTPClient
    /// e.g. `https://api.open-meteo.com`; tests point it at a local fake.
    let baseURL: String
    let maxCitiesPerRequest: Int
    var name: String { "open-meteo" }

    static let currentFields = [
        "temperature_2m", "relative_humidity_2m", "dew_point_2m", "weather_code", "pressure_msl", "wind_speed_10m",
        "wind_direction_10m", "visibility",
    ]
    static let hourlyFields = [
        "temperature_2m", "weather_code", "relative_humidity_2m", "pressure_msl", "wind_speed_10m", "wind_direction_10m",
        "wind_gusts_10m", "precipitation", "snowfall", "visibility",
    ]
    static let dailyFields = ["weather_code", "temperature_2m_max", "temperature_2m_min", "sunrise", "sunset"]

    func url(for cities: [City]) -> String {
        let coordinates = { (values: [Double]) in values.map { String(format: "%.4f", $0) }.joined(separator: ",") }
        return ProviderURL.make(
            base: baseURL, path: "/v1/forecast",
            query: [
                URLQueryItem(name: "latitude", value: coordinates(cities.map(\.latitude))),
                URLQueryItem(name: "longitude", value: coordinates(cities.map(\.longitude))),
                URLQueryItem(name: "current", value: Self.currentFields.joined(separator: ",")),
                URLQueryItem(name: "hourly", value: Self.hourlyFields.joined(separator: ",")),
                URLQueryItem(name: "daily", value: Self.dailyFields.joined(separator: ",")),
                URLQueryItem(name: "timezone", value: cities.map(\.timeZone).joined(separator: ",")),
                URLQueryItem(name: "timeformat", value: "unixtime"),
                URLQueryItem(name: "forecast_days", value: "6"),
                URLQueryItem(name: "wind_speed_unit", value: "kmh"),
                URLQueryItem(name: "temperature_unit", value: "celsius"),
                URLQueryItem(name: "precipitation_unit", value: "mm"),
            ])
    }

    func fetch(_ cities: [City]) async throws -> [Int: WeatherReport] {
        guard !cities.isEmpty else { return [:] }
        let body = try await http.get(url(for: cities))
        return try decode(body, for: cities, fetchedAt: Date())
    }

    /// Decodes an answer for `cities` (in request order).
    func decode(_ body: ByteBuffer, for cities: [City], fetchedAt: Date) throws(ProviderError) -> [Int: WeatherReport] {
        let locations: [OpenMeteoResponse]
        do {
            switch try OpenMeteoResponse.scan(Array(body.readableBytesView)) {
            case .locations(let found): locations = found
            case .rejected(let reason): throw ProviderError.rejected(reason)
            }
        } catch let error as ProviderError {
            throw error
        } catch {
            throw .malformedResponse("not an Open-Meteo forecast: \(error)")
        }
        guard locations.count == cities.count else {
            throw .malformedResponse("asked for \(cities.count) locations, got \(locations.count)")
        }
        var reports: [Int: WeatherReport] = [:]
        for (city, location) in zip(cities, locations) {
            reports[city.id] = try report(from: location, zone: TimeZone(identifier: city.timeZone), fetchedAt: fetchedAt)
        }
        return reports
    }

    private func report(from location: OpenMeteoResponse, zone: TimeZone?, fetchedAt: Date) throws(ProviderError) -> WeatherReport {
        let current = location.current
        guard let now = WeatherCondition.fromWMO(current.weather_code) else {
            throw .malformedResponse("unknown WMO weather code \(current.weather_code)")
        }
        let hourly = location.hourly
        let hourCount = hourly.time.count
        guard [hourly.temperature_2m.count, hourly.weather_code.count, hourly.wind_speed_10m.count].allSatisfy({ $0 == hourCount })
        else { throw .malformedResponse("hourly series of different lengths") }
        var hours: [HourlyForecast] = []
        for index in 0..<hourCount {
            // Hours the model does not cover yet come as nulls; they are left out, not invented.
            guard let temperature = hourly.temperature_2m[index], let code = hourly.weather_code[index],
                let condition = WeatherCondition.fromWMO(code)
            else { continue }
            hours.append(
                HourlyForecast(
                    time: Date(timeIntervalSince1970: TimeInterval(hourly.time[index])), temperatureC: temperature,
                    condition: condition.condition, description: condition.description,
                    humidityPercent: hourly.relative_humidity_2m[safe: index], pressureMb: hourly.pressure_msl[safe: index],
                    windSpeedKmh: hourly.wind_speed_10m[index] ?? 0, windDirectionDegrees: hourly.wind_direction_10m[safe: index],
                    windGustKmh: hourly.wind_gusts_10m[safe: index], precipitationMm: hourly.precipitation[safe: index] ?? 0,
                    snowfallCm: hourly.snowfall[safe: index] ?? 0, visibilityKm: hourly.visibility[safe: index].map { $0 / 1000 }))
        }
        let daily = location.daily
        var days: [DailyForecast] = []
        for index in daily.time.indices {
            guard let max = daily.temperature_2m_max[safe: index], let min = daily.temperature_2m_min[safe: index],
                let code = daily.weather_code[safe: index], let condition = WeatherCondition.fromWMO(code)
            else { continue }
            // Daily times are the local midnight of each day. The city's zone turns each into its local date with
            // the offset of that day (W5): the answer's one `utc_offset_seconds` is today's, and across a clock
            // change it would name one date twice and skip the next. A sum that overflows is a malformed day,
            // skipped, not a trap.
            let offset = zone?.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(daily.time[index]))) ?? location.utc_offset_seconds
            let (localSeconds, overflow) = daily.time[index].addingReportingOverflow(offset)
            guard !overflow else { continue }
            let localMidnight = Date(timeIntervalSince1970: TimeInterval(localSeconds))
            days.append(
                DailyForecast(
                    date: Self.utcDayKey(localMidnight), maxTemperatureC: max, minTemperatureC: min,
                    condition: condition.condition, description: condition.description,
                    sunrise: daily.sunrise[safe: index].map { Date(timeIntervalSince1970: TimeInterval($0)) },
                    sunset: daily.sunset[safe: index].map { Date(timeIntervalSince1970: TimeInterval($0)) }))
        }
        return WeatherReport(
            provider: name, fetchedAt: fetchedAt,
            current: CurrentConditions(
                observedAt: Date(timeIntervalSince1970: TimeInterval(current.time)), condition: now.condition,
                description: now.description, temperatureC: current.temperature_2m, pressureMb: current.pressure_msl,
                windSpeedKmh: current.wind_speed_10m, windDirectionDegrees: current.wind_direction_10m,
                dewPointC: current.dew_point_2m, humidityPercent: current.relative_humidity_2m,
                visibilityKm: current.visibility.map { $0 / 1000 }),
            hourly: hours, daily: days)
    }

    /// A provider's day outside the years a day can name keeps a defined key (the nearest such day).
    private static func utcDayKey(_ date: Date) -> String {
        CivilDate(clamping: date).description
    }
}

extension Array {
    /// The element at `index` of an array of optionals, nil when out of range or null.
    subscript<Wrapped>(safe index: Int) -> Wrapped? where Element == Wrapped? {
        indices.contains(index) ? self[index] : nil
    }
}
