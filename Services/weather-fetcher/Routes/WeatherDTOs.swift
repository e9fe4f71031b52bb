import Foundation
import Hummingbird

/// JSON shapes of the weather-fetcher API. Numbers keep their units in the name; the seed's rendered forms
/// (`12°C`, `1015 mb`, `07:12 AM`) come alongside so every client shows them the same way.
struct CityDTO: ResponseEncodable, Equatable {
    var id: Int
    var name: String
    var region: String
    var country: String
    var countryCode: String
    var latitude: Double
    var longitude: Double
    var timeZone: String
    var population: Int

    init(_ city: City) {
        id = city.id
        name = city.name
        region = city.region
        country = city.country
        countryCode = city.countryCode
        latitude = city.latitude
        longitude = city.longitude
        timeZone = city.timeZone
        population = city.population
    }
}

struct CityPageDTO: ResponseEncodable {
    var cities: [CityDTO]
    var page: Int
    var pageSize: Int
    var hasMore: Bool
}

struct NearestCityDTO: ResponseEncodable {
    var city: CityDTO
    var distanceKm: Double
}

struct CityWeatherDTO: ResponseEncodable {
    var city: CityDTO
    var provider: String
    var updatedAt: Date
    var updatedMinutesAgo: Int
    /// `updated a moment ago`, `updated 5 minutes ago` (W3).
    var updated: String
    var stale: Bool
    var staleReason: String?
    var current: CurrentDTO
    var rightNow: RightNowDTO
    var hourly: [HourDTO]
    var daily: [DayDTO]
    var hasActiveWarning: Bool
    var warnings: [WarningDTO]
    var isFavourite: Bool?
}

struct CurrentDTO: Codable, Equatable {
    var condition: String
    var description: String
    var temperatureC: Double
    var temperature: String
}

struct RightNowDTO: Codable, Equatable {
    var pressureMb: Double
    var pressure: String
    var windSpeedKmh: Double
    var windSpeed: String
    var windDirection: String
    var windDirectionDegrees: Double
    var dewPointC: Double
    var dewPoint: String
    var humidityPercent: Double
    var humidity: String
    var sunrise: String?
    var sunset: String?
    var visibilityMiles: Double?
    var visibility: String?
}

struct HourDTO: Codable, Equatable {
    var time: Date
    /// `4 PM`
    var hour: String
    var temperatureC: Double
    var temperature: String
    var condition: String
    var description: String
}

struct DayDTO: Codable, Equatable {
    var date: String
    var day: String
    var maxTemperatureC: Double
    var minTemperatureC: Double
    var maxTemperature: String
    var minTemperature: String
    var condition: String
    var description: String
}

struct WarningDTO: Codable, Equatable {
    var announcementNumber: String
    var severity: String
    var status: String
    var statusDescription: String
    var start: Date
    var end: Date
}

struct RecentCityDTO: ResponseEncodable {
    var city: CityDTO
    var viewedAt: Date
}

struct RecentCitiesDTO: ResponseEncodable {
    var cities: [RecentCityDTO]
}

struct FavouritesDTO: ResponseEncodable {
    var cities: [CityDTO]
}

struct FavouriteChangeDTO: ResponseEncodable {
    var cityId: Int
    var isFavourite: Bool
}

struct MapCityDTO: Codable, Equatable {
    var id: Int
    var name: String
    var countryCode: String
    var latitude: Double
    var longitude: Double
    var temperatureC: Double
    var temperature: String
    var hasActiveWarning: Bool
    var updatedAt: Date
}

struct MapDTO: ResponseEncodable {
    var cities: [MapCityDTO]
    /// True when the box held more cities than one answer carries (`WEATHER_MAP_MAX_CITIES`).
    var truncated: Bool
}

struct ShareDTO: ResponseEncodable {
    var kind: String
    var text: String
}
