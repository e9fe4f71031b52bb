import PlatformCore

/// Open-Meteo's answer read field by field with `JSONScanner` rather than `JSONDecoder`: a refresh reads the
/// forecast of every city every cadence, and `JSONDecoder` took about a third of weather-fetcher's CPU per city.
/// It reads the same fields with the same rules as the `Decodable` conformance (which the tests hold it to): a
/// required field missing or of the wrong type refuses the whole answer, series values may be null, unknown
/// fields are skipped.
extension OpenMeteoResponse {
    enum Answer: Equatable {
        case locations([OpenMeteoResponse])
        /// `{"error": true, "reason": "..."}`.
        case rejected(reason: String)
    }

    struct MissingField: Error, CustomStringConvertible {
        var name: String
        var description: String { "missing field \(name)" }
    }

    static func scan(_ bytes: [UInt8]) throws -> Answer {
        var scanner = JSONScanner(bytes)
        let answer: Answer
        if scanner.peek() == UInt8(ascii: "[") {
            try scanner.beginArray()
            var locations: [OpenMeteoResponse] = []
            while try scanner.nextElement() {
                guard case .locations(let one) = try scanLocation(&scanner) else { throw MissingField(name: "latitude") }
                locations += one
            }
            answer = .locations(locations)
        } else {
            answer = try scanLocation(&scanner)
        }
        guard scanner.isAtEnd else { throw JSONScanner.Malformed(offset: bytes.count, expected: "the end of the answer") }
        return answer
    }

    /// One location object, or an error answer.
    private static func scanLocation(_ scanner: inout JSONScanner) throws -> Answer {
        var latitude: Double?, longitude: Double?, offset: Int?, timezone: String?
        var current: Current?, hourly: Hourly?, daily: Daily?
        var error: Bool?, reason: String?
        try scanner.beginObject()
        while let key = try scanner.nextKey() {
            switch key {
            case "latitude": latitude = try scanner.double()
            case "longitude": longitude = try scanner.double()
            case "utc_offset_seconds": offset = try scanner.integer()
            case "timezone": timezone = try scanner.string()
            case "current": current = try Current.scan(&scanner)
            case "hourly": hourly = try Hourly.scan(&scanner)
            case "daily": daily = try Daily.scan(&scanner)
            case "error": error = try scanner.bool()
            case "reason": reason = try scanner.string()
            default: try scanner.skipValue()
            }
        }
        if error == true, let reason { return .rejected(reason: reason) }
        return .locations([
            OpenMeteoResponse(
                latitude: try required(latitude, "latitude"), longitude: try required(longitude, "longitude"),
                utc_offset_seconds: try required(offset, "utc_offset_seconds"), timezone: try required(timezone, "timezone"),
                current: try required(current, "current"), hourly: try required(hourly, "hourly"), daily: try required(daily, "daily"))
        ])
    }

}

private func required<Value>(_ value: Value?, _ name: String) throws -> Value {
    guard let value else { throw OpenMeteoResponse.MissingField(name: name) }
    return value
}

extension OpenMeteoResponse.Current {
    fileprivate static func scan(_ scanner: inout JSONScanner) throws -> Self {
        var time: Int?, temperature: Double?, humidity: Double?, dewPoint: Double?, code: Int?, pressure: Double?
        var windSpeed: Double?, windDirection: Double?, visibility: Double?
        try scanner.beginObject()
        while let key = try scanner.nextKey() {
            switch key {
            case "time": time = try scanner.integer()
            case "temperature_2m": temperature = try scanner.double()
            case "relative_humidity_2m": humidity = try scanner.double()
            case "dew_point_2m": dewPoint = try scanner.double()
            case "weather_code": code = try scanner.integer()
            case "pressure_msl": pressure = try scanner.double()
            case "wind_speed_10m": windSpeed = try scanner.double()
            case "wind_direction_10m": windDirection = try scanner.double()
            case "visibility": visibility = scanner.null() ? nil : try scanner.double()
            default: try scanner.skipValue()
            }
        }
        return Self(
            time: try required(time, "current.time"), temperature_2m: try required(temperature, "current.temperature_2m"),
            relative_humidity_2m: try required(humidity, "current.relative_humidity_2m"),
            dew_point_2m: try required(dewPoint, "current.dew_point_2m"), weather_code: try required(code, "current.weather_code"),
            pressure_msl: try required(pressure, "current.pressure_msl"), wind_speed_10m: try required(windSpeed, "current.wind_speed_10m"),
            wind_direction_10m: try required(windDirection, "current.wind_direction_10m"), visibility: visibility)
    }
}

extension OpenMeteoResponse.Hourly {
    fileprivate static func scan(_ scanner: inout JSONScanner) throws -> Self {
        var series: [String: [Double?]] = [:]
        var time: [Int]?, codes: [Int?]?
        try scanner.beginObject()
        while let key = try scanner.nextKey() {
            switch key {
            case "time": time = try scanner.integers()
            case "weather_code": codes = try scanner.nullableIntegers()
            case "temperature_2m", "relative_humidity_2m", "pressure_msl", "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m",
                "precipitation", "snowfall", "visibility":
                series[key] = try scanner.nullableDoubles()
            default: try scanner.skipValue()
            }
        }
        func values(_ name: String) throws -> [Double?] { try required(series[name], "hourly.\(name)") }
        return Self(
            time: try required(time, "hourly.time"), temperature_2m: try values("temperature_2m"),
            weather_code: try required(codes, "hourly.weather_code"),
            relative_humidity_2m: try values("relative_humidity_2m"), pressure_msl: try values("pressure_msl"),
            wind_speed_10m: try values("wind_speed_10m"), wind_direction_10m: try values("wind_direction_10m"),
            wind_gusts_10m: try values("wind_gusts_10m"), precipitation: try values("precipitation"), snowfall: try values("snowfall"),
            visibility: try values("visibility"))
    }
}

extension OpenMeteoResponse.Daily {
    fileprivate static func scan(_ scanner: inout JSONScanner) throws -> Self {
        var time: [Int]?, codes: [Int?]?, maxima: [Double?]?, minima: [Double?]?, sunrise: [Int?]?, sunset: [Int?]?
        try scanner.beginObject()
        while let key = try scanner.nextKey() {
            switch key {
            case "time": time = try scanner.integers()
            case "weather_code": codes = try scanner.nullableIntegers()
            case "temperature_2m_max": maxima = try scanner.nullableDoubles()
            case "temperature_2m_min": minima = try scanner.nullableDoubles()
            case "sunrise": sunrise = try scanner.nullableIntegers()
            case "sunset": sunset = try scanner.nullableIntegers()
            default: try scanner.skipValue()
            }
        }
        return Self(
            time: try required(time, "daily.time"), weather_code: try required(codes, "daily.weather_code"),
            temperature_2m_max: try required(maxima, "daily.temperature_2m_max"),
            temperature_2m_min: try required(minima, "daily.temperature_2m_min"), sunrise: try required(sunrise, "daily.sunrise"),
            sunset: try required(sunset, "daily.sunset"))
    }
}

extension JSONScanner {
    fileprivate mutating func integers() throws -> [Int] {
        var values: [Int] = []
        try beginArray()
        while try nextElement() { values.append(try integer()) }
        return values
    }

    fileprivate mutating func nullableIntegers() throws -> [Int?] {
        var values: [Int?] = []
        try beginArray()
        while try nextElement() { values.append(null() ? nil : try integer()) }
        return values
    }

    fileprivate mutating func nullableDoubles() throws -> [Double?] {
        var values: [Double?] = []
        try beginArray()
        while try nextElement() { values.append(null() ? nil : try double()) }
        return values
    }
}
