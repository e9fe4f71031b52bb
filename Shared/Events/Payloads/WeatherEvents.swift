import Foundation

/// Payloads of the `weather.forecasts` topic (key: city id), produced by weather-fetcher on every refresh
/// (W6) and consumed by warning-detector, which derives warnings from them (A1).

/// The city a forecast is for, with what a consumer needs to render it without the catalogue.
public struct ForecastCity: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var region: String
    public var countryCode: String
    public var country: String
    public var latitude: Double
    public var longitude: Double
    /// IANA time zone, e.g. `Europe/Berlin`.
    public var timeZone: String

    public init(
        id: Int, name: String, region: String, countryCode: String, country: String, latitude: Double, longitude: Double,
        timeZone: String
    ) {
        self.id = id
        self.name = name
        self.region = region
        self.countryCode = countryCode
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
        self.timeZone = timeZone
    }
}

/// One hour of a forecast, in metric units.
public struct ForecastHour: Codable, Sendable, Equatable {
    public var time: Date
    public var temperatureC: Double
    /// The platform's condition symbol.
    public var condition: WeatherCondition
    public var description: String
    public var windSpeedKmh: Double
    public var windGustKmh: Double?
    public var precipitationMm: Double
    public var snowfallCm: Double
    public var visibilityKm: Double?

    public init(
        time: Date, temperatureC: Double, condition: WeatherCondition, description: String, windSpeedKmh: Double,
        windGustKmh: Double?, precipitationMm: Double, snowfallCm: Double, visibilityKm: Double?
    ) {
        self.time = time
        self.temperatureC = temperatureC
        self.condition = condition
        self.description = description
        self.windSpeedKmh = windSpeedKmh
        self.windGustKmh = windGustKmh
        self.precipitationMm = precipitationMm
        self.snowfallCm = snowfallCm
        self.visibilityKm = visibilityKm
    }
}

/// `forecast.updated`: the hours ahead (at least 48 when the provider has them) after a refresh.
public struct ForecastUpdated: Codable, Sendable, Equatable {
    public var city: ForecastCity
    public var provider: String
    public var fetchedAt: Date
    public var currentTemperatureC: Double
    public var currentCondition: WeatherCondition
    public var currentDescription: String
    public var hours: [ForecastHour]

    public init(
        city: ForecastCity, provider: String, fetchedAt: Date, currentTemperatureC: Double, currentCondition: WeatherCondition,
        currentDescription: String, hours: [ForecastHour]
    ) {
        self.city = city
        self.provider = provider
        self.fetchedAt = fetchedAt
        self.currentTemperatureC = currentTemperatureC
        self.currentCondition = currentCondition
        self.currentDescription = currentDescription
        self.hours = hours
    }
}

/// Payload of `warning.issued` and `warning.updated` on `weather.warnings` (key: city id), produced by
/// warning-detector (A1, A2). weather-fetcher reads it for the map's warning flag and the warning share text.
public struct WarningNotice: Codable, Sendable, Equatable {
    @LowercaseUUID public var warningId: UUID
    public var cityId: Int
    /// CAP-like announcement number, e.g. `2026-000123`.
    public var announcementNumber: String
    public var location: String
    public var region: String
    public var kind: WarningKind
    public var severity: WarningSeverity
    /// What the seed calls the status, e.g. `Severe wind warning`.
    public var status: String
    public var statusDescription: String
    public var onset: Date
    public var ends: Date

    public init(
        warningId: UUID, cityId: Int, announcementNumber: String, location: String, region: String, kind: WarningKind,
        severity: WarningSeverity, status: String, statusDescription: String, onset: Date, ends: Date
    ) {
        self.warningId = warningId
        self.cityId = cityId
        self.announcementNumber = announcementNumber
        self.location = location
        self.region = region
        self.kind = kind
        self.severity = severity
        self.status = status
        self.statusDescription = statusDescription
        self.onset = onset
        self.ends = ends
    }
}

/// `warning.cancelled`: the condition disappeared before the warning ended.
public struct WarningCancelled: Codable, Sendable, Equatable {
    @LowercaseUUID public var warningId: UUID
    public var cityId: Int

    public init(warningId: UUID, cityId: Int) {
        self.warningId = warningId
        self.cityId = cityId
    }
}

/// Payload of `favourite.added` and `favourite.removed` on `weather.user-cities` (key: user id), produced by
/// weather-fetcher when a user marks or unmarks a favourite (W8). warning-detector reads it to know whom
/// a city's warnings and forecasts concern (A4, A5).
public struct FavouriteChanged: Codable, Sendable, Equatable {
    public var userId: String
    public var city: ForecastCity

    public init(userId: String, city: ForecastCity) {
        self.userId = userId
        self.city = city
    }
}
