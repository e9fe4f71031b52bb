import Foundation
import Hummingbird

/// JSON shapes of the warning-detector API.
struct WarningDTO: Codable, Equatable {
    var id: UUID
    var cityId: Int
    var kind: String
    var announcementNumber: String
    var location: String
    var region: String
    var latitude: Double
    var longitude: Double
    var severity: String
    var status: String
    var statusDescription: String
    var timeZone: String
    var onset: Date
    var ends: Date
    /// A3: `01:00 AM, Monday, 15/10/2015` in the city's time zone.
    var onsetText: String
    var endsText: String

    init(_ warning: Warning) {
        id = warning.id
        cityId = warning.cityId
        kind = warning.kind
        announcementNumber = warning.announcementNumber
        location = warning.location
        region = warning.region
        latitude = warning.latitude
        longitude = warning.longitude
        severity = warning.severity
        status = warning.status
        statusDescription = warning.statusDescription
        timeZone = warning.timeZone
        onset = warning.onset
        ends = warning.ends
        onsetText = WarningDateFormat.string(warning.onset, timeZone: warning.timeZone)
        endsText = WarningDateFormat.string(warning.ends, timeZone: warning.timeZone)
    }
}

struct WarningListDTO: ResponseEncodable {
    var warnings: [WarningDTO]
}

struct SettingDTO: Codable, Equatable {
    var forecasts: Bool
    var warnings: Bool
}

struct FavouriteSettingDTO: Codable, Equatable {
    var cityId: Int
    var name: String
    var forecasts: Bool
    var warnings: Bool
}

struct SettingsDTO: ResponseEncodable {
    var currentLocation: SettingDTO
    var favourites: [FavouriteSettingDTO]

    init(_ settings: UserStore.Settings) {
        currentLocation = SettingDTO(forecasts: settings.currentLocation.forecasts, warnings: settings.currentLocation.warnings)
        favourites = settings.favourites.map {
            FavouriteSettingDTO(cityId: $0.city.id, name: $0.city.name, forecasts: $0.setting.forecasts, warnings: $0.setting.warnings)
        }
    }
}

struct SettingsRequest: Decodable {
    struct Switches: Decodable {
        var forecasts: Bool?
        var warnings: Bool?
    }

    struct Favourite: Decodable {
        var cityId: Int?
        var forecasts: Bool?
        var warnings: Bool?
    }

    var currentLocation: Switches?
    var favourites: [Favourite]?
}

struct DeviceRequest: Decodable {
    var currentCityId: Int?
    var timeZone: String?
}

struct DeviceDTO: ResponseEncodable, Decodable {
    var token: String
    var currentCityId: Int?
    var timeZone: String?
}

struct DevicesDTO: ResponseEncodable {
    var devices: [DeviceDTO]
}

struct DeliveryDTO: ResponseEncodable {
    var id: UUID
    var deviceToken: String
    var userId: String
    var kind: String
    var status: String
    var attempts: Int
    var lastStatus: Int?
    var lastError: String?
    var createdAt: Date
    var finishedAt: Date?

    init(_ entry: PushQueue.LogEntry) {
        id = entry.id
        deviceToken = entry.deviceToken
        userId = entry.userId
        kind = entry.kind
        status = entry.status
        attempts = entry.attempts
        lastStatus = entry.lastStatus
        lastError = entry.lastError
        createdAt = entry.createdAt
        finishedAt = entry.finishedAt
    }
}

struct DeliveriesDTO: ResponseEncodable {
    var deliveries: [DeliveryDTO]
}

struct NewsRequest: Decodable {
    var name: String?
    var body: String?
    /// `yyyy-MM-dd`
    var date: String?
    /// `HH:mm`, 24-hour
    var time: String?
    var location: String?
    /// IANA zone the date and time are in; UTC when absent.
    var timeZone: String?
}

struct NewsDTO: ResponseEncodable {
    var id: UUID
    var name: String
    var body: String
    var location: String
    var happenedAt: Date
    var timeZone: String
    /// A3 style, in the item's time zone.
    var happenedAtText: String
    var publishedAt: Date

    init(_ item: NewsStore.Item) {
        id = item.id
        name = item.name
        body = item.body
        location = item.location
        happenedAt = item.happenedAt
        timeZone = item.timeZone
        happenedAtText = WarningDateFormat.string(item.happenedAt, timeZone: item.timeZone)
        publishedAt = item.publishedAt
    }
}

struct NewsPageDTO: ResponseEncodable {
    var news: [NewsDTO]
    var page: Int
    var pageSize: Int
    var hasMore: Bool
}
