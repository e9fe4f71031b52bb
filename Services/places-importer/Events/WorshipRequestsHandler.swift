import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// appointment-booker's `worship.places-wanted` (B4): the area around the point (`WorshipSearchBox`, within the
/// import area limits) is imported with its places of worship. A request off the globe or with a radius outside
/// 100 m-200 km is a poison event (dead letter).
struct WorshipRequestsHandler: EventHandler {
    static let radiusRange = 100.0...200_000.0
    let searchBox: WorshipSearchBox

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        guard event.header.type == EventTypes.worshipPlacesWanted else {
            throw EventDecodingError(reason: "places-importer does not handle \(event.header.type) events")
        }
        let wanted = try event.payload(as: WorshipPlacesWanted.self)
        guard (-90...90).contains(wanted.latitude), (-180...180).contains(wanted.longitude) else {
            throw EventDecodingError(reason: "worship request \(wanted.requestId) has a point outside the globe")
        }
        guard Self.radiusRange.contains(wanted.radiusMeters) else {
            throw EventDecodingError(reason: "worship request \(wanted.requestId) has a radius outside 100 m to 200 km")
        }
        guard (1...64).contains(wanted.requestId.utf8.count) else {
            throw EventDecodingError(reason: "a worship request id must be 1 to 64 bytes")
        }
        try await WorshipAreaRequests.record(wanted, in: searchBox, on: connection, logger: logger)
        logger.info("places of worship requested", metadata: ["request": "\(wanted.requestId)"])
    }
}
