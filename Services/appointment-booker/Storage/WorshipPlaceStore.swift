import Foundation
import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// appointment-booker's own read model of places of worship (B4), kept from places-importer's
/// `place.upserted` events: a place whose category is `worship` is kept, one that changed to another
/// category or closed is dropped. Nearby places are found by a latitude band and the haversine distance.
struct WorshipPlaceStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    static func apply(_ place: PlaceUpserted, on connection: PostgresConnection, logger: Logger) async throws {
        guard place.category == .worship, place.closed != true else {
            try await connection.tracedQuery("DELETE FROM worship_places WHERE place_id = \(place.placeId)", logger: logger)
            return
        }
        guard (-90...90).contains(place.latitude), (-180...180).contains(place.longitude) else {
            throw EventDecodingError(reason: "place \(place.placeId) has coordinates outside the globe")
        }
        try await connection.tracedQuery(
            """
            INSERT INTO worship_places (place_id, name, latitude, longitude, address)
            VALUES (\(place.placeId), \(place.name), \(place.latitude), \(place.longitude), \(place.address))
            ON CONFLICT (place_id) DO UPDATE SET name = excluded.name, latitude = excluded.latitude,
                longitude = excluded.longitude, address = excluded.address
            """, logger: logger)
    }

    /// Up to `limit` places within `radius` metres, nearest first.
    func near(latitude: Double, longitude: Double, radius: Double, limit: Int) async throws -> [NearbyWorshipPlace] {
        let band = radius / 111_000
        let rows = try await client.tracedQuery(
            """
            SELECT name, latitude, longitude, address, distance FROM (
                SELECT name, latitude, longitude, address,
                    2 * 6371000 * asin(sqrt(power(sin(radians(latitude - \(latitude)) / 2), 2)
                        + cos(radians(\(latitude))) * cos(radians(latitude)) * power(sin(radians(longitude - \(longitude)) / 2), 2))) AS distance
                FROM worship_places WHERE latitude BETWEEN \(latitude - band) AND \(latitude + band)
            ) place WHERE distance <= \(radius) ORDER BY distance LIMIT \(limit)
            """, logger: logger)
        var places: [NearbyWorshipPlace] = []
        for try await (name, lat, lon, address, distance) in rows.decode((String, Double, Double, String?, Double).self) {
            places.append(
                NearbyWorshipPlace(
                    name: name, latitude: lat, longitude: lon, address: address, distanceMeters: Int(exactly: min(distance, radius).rounded()) ?? 0))
        }
        return places
    }
}
