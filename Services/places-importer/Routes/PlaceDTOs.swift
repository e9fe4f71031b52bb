import Foundation
import Hummingbird

/// JSON shapes of the places-importer API.
struct PlaceDTO: Codable, Equatable {
    var id: UUID
    var name: String
    var category: String
    var latitude: Double
    var longitude: Double
    var address: String?
    var openingHours: String?
    var phone: String?
    var website: String?
    var internetAccess: String?
    var userAdded: Bool
    /// `red`, `blue` or the user's colour (P2).
    var pin: String
    var distanceMetres: Double?

    init(_ place: Place, pin: String, distanceMetres: Double? = nil) {
        id = place.id
        name = place.name
        category = place.category.rawValue
        latitude = place.latitude
        longitude = place.longitude
        address = place.address
        openingHours = place.openingHours
        phone = place.phone
        website = place.website
        internetAccess = place.internetAccess
        userAdded = place.addedBy != nil
        self.pin = pin
        self.distanceMetres = distanceMetres.map { ($0 * 10).rounded() / 10 }
    }
}

struct PlacePageDTO: ResponseEncodable {
    var places: [PlaceDTO]
    var page: Int
    var pageSize: Int
    var hasMore: Bool
}

struct AggregateDTO: Codable, Equatable {
    var count: Int
    var averages: [String: Double]
    var menuOptions: [String: Int]
    var businessTypes: [String: Int]

    init(_ aggregate: UserPlaceStore.Aggregate) {
        count = aggregate.count
        averages = aggregate.averages
        menuOptions = aggregate.menuOptions
        businessTypes = aggregate.businessTypes
    }
}

struct PlaceDetailDTO: ResponseEncodable {
    var place: PlaceDTO
    var ratings: AggregateDTO
    var myRating: Rating?
}

struct RatedDTO: ResponseEncodable {
    var placeId: UUID
    var rating: Rating
    var ratings: AggregateDTO
}

struct PinDTO: ResponseEncodable {
    var placeId: UUID
    var pin: String
}

struct NewPlaceRequest: Decodable {
    var name: String?
    var address: String?
    var latitude: Double?
    var longitude: Double?
    var category: String?
    var rating: RatingInput?
    var pinColour: String?
}

struct PinRequest: Decodable {
    var colour: String?
}

struct ImportAreaRequest: Decodable {
    var name: String?
    var south: Double?
    var west: Double?
    var north: Double?
    var east: Double?
}

struct ImportAreaDTO: ResponseEncodable {
    var id: UUID
    var name: String
    var south: Double
    var west: Double
    var north: Double
    var east: Double
    var nextRunAt: Date
    var lastStartedAt: Date?
    var lastFinishedAt: Date?
    var lastStatus: String?
    var lastError: String?
    var created: Int
    var changed: Int
    var unchanged: Int
    var tilesDone: Int
    var tilesTotal: Int

    init(_ status: ImportAreaStore.Status) {
        id = status.area.id
        name = status.area.name
        south = status.area.box.south
        west = status.area.box.west
        north = status.area.box.north
        east = status.area.box.east
        nextRunAt = status.nextRunAt
        lastStartedAt = status.lastStartedAt
        lastFinishedAt = status.lastFinishedAt
        lastStatus = status.lastStatus
        lastError = status.lastError
        created = status.created
        changed = status.changed
        unchanged = status.unchanged
        tilesDone = status.tilesDone
        tilesTotal = status.tilesTotal
    }
}

struct ImportAreasDTO: ResponseEncodable {
    var areas: [ImportAreaDTO]
}
