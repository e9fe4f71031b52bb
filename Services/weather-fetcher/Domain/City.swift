import PlatformEvents

/// A city of the GeoNames catalogue (W1), identified by its GeoNames id. Package-visible: the service's test
/// fixtures, a target of their own shared by its unit and service tests, build cities.
package struct City: Codable, Sendable, Equatable {
    package var id: Int
    package var name: String
    package var asciiName: String
    package var countryCode: String
    package var country: String
    package var region: String
    package var latitude: Double
    package var longitude: Double
    /// IANA time zone, e.g. `Europe/Berlin`; every local time of the city is rendered in it.
    package var timeZone: String
    package var population: Int

    package init(
        id: Int, name: String, asciiName: String, countryCode: String, country: String, region: String, latitude: Double,
        longitude: Double, timeZone: String, population: Int
    ) {
        self.id = id
        self.name = name
        self.asciiName = asciiName
        self.countryCode = countryCode
        self.country = country
        self.region = region
        self.latitude = latitude
        self.longitude = longitude
        self.timeZone = timeZone
        self.population = population
    }

    /// The city as forecast events carry it.
    package var forecastCity: ForecastCity {
        ForecastCity(
            id: id, name: name, region: region, countryCode: countryCode, country: country, latitude: latitude,
            longitude: longitude, timeZone: timeZone)
    }
}
