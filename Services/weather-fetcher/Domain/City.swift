import Shared

/// A city of the GeoNames catalogue (W1), identified by its GeoNames id.
struct City: Codable, Sendable, Equatable {
    var id: Int
    var name: String
    var asciiName: String
    var countryCode: String
    var country: String
    var region: String
    var latitude: Double
    var longitude: Double
    /// IANA time zone, e.g. `Europe/Berlin`; every local time of the city is rendered in it.
    var timeZone: String
    var population: Int

    /// The city as forecast events carry it.
    var forecastCity: ForecastCity {
        ForecastCity(
            id: id, name: name, region: region, countryCode: countryCode, country: country, latitude: latitude,
            longitude: longitude, timeZone: timeZone)
    }
}
