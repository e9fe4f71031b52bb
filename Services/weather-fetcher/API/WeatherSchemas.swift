import Foundation
import PlatformEvents

/// The document's schemas under the names the presenter and the view cache use. Numbers keep their units
/// in the name; the seed's rendered forms (`12°C`, `1015 mb`, `07:12 AM`) come alongside so every client
/// shows them the same way.
typealias CityDTO = Components.Schemas.City
typealias CityWeatherDTO = Components.Schemas.CityWeather
typealias CurrentDTO = Components.Schemas.Current
typealias RightNowDTO = Components.Schemas.RightNow
typealias HourDTO = Components.Schemas.Hour
typealias DayDTO = Components.Schemas.Day

extension Components.Schemas.City {
    init(_ city: City) {
        self.init(
            id: city.id, name: city.name, region: city.region, country: city.country, countryCode: city.countryCode,
            latitude: city.latitude, longitude: city.longitude, timeZone: city.timeZone, population: city.population)
    }

    /// A search result, naming the alternate name that matched (W1).
    init(_ match: CityStore.Match) {
        self.init(match.city)
        matchedName = match.matchedName
    }
}

extension WeatherCondition {
    /// The same symbol in the document's enum (a test checks every case maps).
    var api: Components.Schemas.Condition {
        Components.Schemas.Condition(rawValue: rawValue) ?? .cloudy
    }
}
