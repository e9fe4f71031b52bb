import Foundation

/// Payloads of the `places.places` topic (key: place id), produced by places-importer (P1-P4).

/// `place.upserted`: a place was created or changed (by an import or a user).
public struct PlaceUpserted: Codable, Sendable, Equatable {
    @LowercaseUUID public var placeId: UUID
    public var name: String
    public var category: PlaceCategory
    public var latitude: Double
    public var longitude: Double
    public var address: String?
    public var openingHours: String?
    public var phone: String?
    public var website: String?
    /// `provider:id` of every source that contributed, e.g. `osm:node/123`, `yelp:abc`, `user:<id>`.
    public var sources: [String]
    /// True when the place vanished from every provider at its area's last import (P1): it no longer shows in
    /// nearby lists. Nil (absent) for an open place and in events from before the field.
    public var closed: Bool?

    public init(
        placeId: UUID, name: String, category: PlaceCategory, latitude: Double, longitude: Double, address: String?,
        openingHours: String?, phone: String?, website: String?, sources: [String], closed: Bool? = nil
    ) {
        self.closed = closed
        self.placeId = placeId
        self.name = name
        self.category = category
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.openingHours = openingHours
        self.phone = phone
        self.website = website
        self.sources = sources
    }
}

/// `place.rated`: a user rated (or re-rated) a place; carries the place's new aggregate.
public struct PlaceRated: Codable, Sendable, Equatable {
    @LowercaseUUID public var placeId: UUID
    public var userId: String
    public var ratingCount: Int
    public var averages: [String: Double]

    public init(placeId: UUID, userId: String, ratingCount: Int, averages: [String: Double]) {
        self.placeId = placeId
        self.userId = userId
        self.ratingCount = ratingCount
        self.averages = averages
    }
}
