/// Open-Meteo's forecast API answer (`/v1/forecast` with `timeformat=unixtime`): one object per location,
/// or an array of them when several coordinates were asked for. Series values may be null.
struct OpenMeteoResponse: Decodable, Equatable {
    var latitude: Double
    var longitude: Double
    var utc_offset_seconds: Int
    var timezone: String
    var current: Current
    var hourly: Hourly
    var daily: Daily

    struct Current: Decodable, Equatable {
        var time: Int
        var temperature_2m: Double
        var relative_humidity_2m: Double
        var dew_point_2m: Double
        var weather_code: Int
        var pressure_msl: Double
        var wind_speed_10m: Double
        var wind_direction_10m: Double
        var visibility: Double?
    }

    struct Hourly: Decodable, Equatable {
        var time: [Int]
        var temperature_2m: [Double?]
        var weather_code: [Int?]
        var relative_humidity_2m: [Double?]
        var pressure_msl: [Double?]
        var wind_speed_10m: [Double?]
        var wind_direction_10m: [Double?]
        var wind_gusts_10m: [Double?]
        var precipitation: [Double?]
        var snowfall: [Double?]
        var visibility: [Double?]
    }

    struct Daily: Decodable, Equatable {
        var time: [Int]
        var weather_code: [Int?]
        var temperature_2m_max: [Double?]
        var temperature_2m_min: [Double?]
        var sunrise: [Int?]
        var sunset: [Int?]
    }
}
