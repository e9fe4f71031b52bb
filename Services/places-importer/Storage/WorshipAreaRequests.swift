import Foundation
import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// appointment-booker's requests for places of worship (B4): each becomes an import area around its point (places
/// of worship included, due at once, expiring like an on-demand tile), and is answered with the places of worship
/// within its radius when that area's run succeeds. A request whose answer was lost (a crash between the run and
/// the answer) is asked again by appointment-booker within the hour, which runs the area again.
struct WorshipAreaRequests: Sendable {
    let client: PostgresClient
    /// Where answers go: the places topic, which appointment-booker reads.
    let topic: String
    let logger: Logger

    /// Records the request and makes its area (the `searchBox` around its point) due now, in the consumer's transaction.
    static func record(
        _ wanted: WorshipPlacesWanted, in searchBox: WorshipSearchBox, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let box = searchBox.around(latitude: wanted.latitude, longitude: wanted.longitude, radiusMeters: wanted.radiusMeters)
        let name = WorshipSearchBox.areaName(requestId: wanted.requestId)
        try await connection.tracedQuery(
            """
            INSERT INTO import_areas (id, name, south, west, north, east, places_of_worship, on_demand, requested_by, next_run_at)
            VALUES (\(UUID()), \(name), \(box.south), \(box.west), \(box.north), \(box.east), true, true, 'appointment-booker', now())
            ON CONFLICT (name) DO UPDATE SET south = excluded.south, west = excluded.west, north = excluded.north, east = excluded.east,
                places_of_worship = true, next_run_at = now(), last_requested_at = now()
            """, logger: logger)
        try await connection.tracedQuery(
            """
            INSERT INTO worship_requests (request_id, area_name, latitude, longitude, radius_meters)
            VALUES (\(wanted.requestId), \(name), \(wanted.latitude), \(wanted.longitude), \(wanted.radiusMeters))
            ON CONFLICT (request_id) DO UPDATE SET area_name = excluded.area_name, latitude = excluded.latitude,
                longitude = excluded.longitude, radius_meters = excluded.radius_meters, requested_at = now(), answered_at = NULL
            """, logger: logger)
    }

    /// Answers the requests waiting for `areaName` (its run succeeded): each gets the places of worship within its
    /// radius, nearest first, through the outbox. Returns how many were answered.
    @discardableResult
    func answer(areaName: String) async throws -> Int {
        try await client.inTransaction(logger: logger) { connection in
            let pending = try await connection.tracedQuery(
                """
                UPDATE worship_requests SET answered_at = now() WHERE area_name = \(areaName) AND answered_at IS NULL
                RETURNING request_id, latitude, longitude, radius_meters
                """, logger: logger
            ).decode((String, Double, Double, Double).self).collectAll()
            for (request, latitude, longitude, radius) in pending {
                let rows = try await connection.tracedQuery(
                    """
                    SELECT p.id, p.name, ST_Y(p.location::geometry), ST_X(p.location::geometry), p.address FROM places p
                    WHERE p.category = 'worship' AND p.closed_at IS NULL AND p.review = 'approved'
                      AND ST_DWithin(p.location, ST_SetSRID(ST_MakePoint(\(longitude), \(latitude)), 4326)::geography, \(radius), false)
                    ORDER BY p.location <-> ST_SetSRID(ST_MakePoint(\(longitude), \(latitude)), 4326)::geography, p.id
                    LIMIT \(WorshipPlacesFound.limit)
                    """, logger: logger)
                var places: [WorshipPlacesFound.Place] = []
                for try await (id, name, lat, lon, address) in rows.decode((UUID, String, Double, Double, String?).self) {
                    places.append(.init(placeId: id, name: name, latitude: lat, longitude: lon, address: address))
                }
                try await Outbox.enqueue(
                    EventEnvelope(
                        type: EventTypes.worshipPlacesFound, producer: "places-importer", key: request,
                        payload: WorshipPlacesFound(requestId: request, places: places)),
                    toTopicNamed: topic, on: connection, logger: logger)
                logger.info("places of worship request answered", metadata: ["request": "\(request)", "places": "\(places.count)"])
            }
            return pending.count
        }
    }
}
