import PlatformEvents

/// How each provider's codes map onto the platform's condition symbols (W6).
extension WeatherCondition {
    /// WMO weather interpretation codes, as Open-Meteo's `weather_code` gives them, with WMO's wording.
    package static func fromWMO(_ code: Int) -> (condition: WeatherCondition, description: String)? {
        switch code {
        case 0: (.clear, "Clear sky")
        case 1: (.clear, "Mainly clear")
        case 2: (.partlyCloudy, "Partly cloudy")
        case 3: (.cloudy, "Overcast")
        case 45: (.fog, "Fog")
        case 48: (.fog, "Depositing rime fog")
        case 51: (.drizzle, "Light drizzle")
        case 53: (.drizzle, "Moderate drizzle")
        case 55: (.drizzle, "Dense drizzle")
        case 56: (.freezingRain, "Light freezing drizzle")
        case 57: (.freezingRain, "Dense freezing drizzle")
        case 61: (.rain, "Slight rain")
        case 63: (.rain, "Moderate rain")
        case 65: (.heavyRain, "Heavy rain")
        case 66: (.freezingRain, "Light freezing rain")
        case 67: (.freezingRain, "Heavy freezing rain")
        case 71: (.snow, "Slight snow fall")
        case 73: (.snow, "Moderate snow fall")
        case 75: (.snow, "Heavy snow fall")
        case 77: (.snow, "Snow grains")
        case 80: (.showers, "Slight rain showers")
        case 81: (.showers, "Moderate rain showers")
        case 82: (.heavyRain, "Violent rain showers")
        case 85: (.snow, "Slight snow showers")
        case 86: (.snow, "Heavy snow showers")
        case 95: (.thunderstorm, "Thunderstorm")
        case 96: (.thunderstorm, "Thunderstorm with slight hail")
        case 99: (.thunderstorm, "Thunderstorm with heavy hail")
        default: nil
        }
    }

    /// WorldWeatherOnline's `weatherCode` values (its published condition list); the description comes from
    /// the response's `weatherDesc`.
    package static func fromWorldWeatherOnline(_ code: Int) -> WeatherCondition? {
        switch code {
        case 113: .clear
        case 116: .partlyCloudy
        case 119, 122: .cloudy
        case 143, 248, 260: .fog
        case 263, 266: .drizzle
        case 176, 293, 296, 299, 302: .rain
        case 305, 308, 359: .heavyRain
        case 185, 281, 284, 311, 314: .freezingRain
        case 182, 317, 320, 350, 362, 365, 374, 377: .sleet
        case 179, 227, 230, 323, 326, 329, 332, 335, 338, 368, 371: .snow
        case 353, 356: .showers
        case 200, 386, 389, 392, 395: .thunderstorm
        default: nil
        }
    }
}
