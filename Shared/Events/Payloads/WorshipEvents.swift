import Foundation

/// `worship.places-wanted`: appointment-booker has no place of worship near a bad reading's point (B4) and asks
/// places-importer to import those around it. One request per cell of the point (`requestId`), asked again when
/// no answer came within the hour.
public struct WorshipPlacesWanted: Codable, Sendable, Equatable {
    /// The asking cell, e.g. `13.75,100.50`: the answer names it.
    public var requestId: String
    public var latitude: Double
    public var longitude: Double
    /// How far from the point the answer's places may lie.
    public var radiusMeters: Double

    public init(requestId: String, latitude: Double, longitude: Double, radiusMeters: Double) {
        self.requestId = requestId
        self.latitude = latitude
        self.longitude = longitude
        self.radiusMeters = radiusMeters
    }
}

/// `worship.places-found`: places-importer imported the places around a request's point; these are its places of
/// worship within the radius, nearest first (at most `limit`), none when there are none. The places come in the
/// answer itself, so the asker never takes an answer for "none" before their `place.upserted` events arrive.
public struct WorshipPlacesFound: Codable, Sendable, Equatable {
    public static let limit = 200

    public struct Place: Codable, Sendable, Equatable {
        @LowercaseUUID public var placeId: UUID
        public var name: String
        public var latitude: Double
        public var longitude: Double
        public var address: String?

        public init(placeId: UUID, name: String, latitude: Double, longitude: Double, address: String?) {
            self.placeId = placeId
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
            self.address = address
        }
    }

    public var requestId: String
    public var places: [Place]

    public init(requestId: String, places: [Place]) {
        self.requestId = requestId
        self.places = places
    }
}
