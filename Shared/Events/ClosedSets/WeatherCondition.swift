/// The platform's weather condition symbols. Clients draw one icon per symbol; the provider's own wording
/// travels alongside as the description. Both providers' codes map onto these.
public enum WeatherCondition: String, Codable, Sendable, CaseIterable {
    case clear
    case partlyCloudy = "partly-cloudy"
    case cloudy
    case fog
    case drizzle
    case rain
    case heavyRain = "heavy-rain"
    case freezingRain = "freezing-rain"
    case sleet
    case snow
    case showers
    case thunderstorm
}
