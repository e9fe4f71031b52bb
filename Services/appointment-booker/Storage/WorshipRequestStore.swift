import Foundation
import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// appointment-booker's requests to places-importer for places of worship (B4): where a bad reading finds none in
/// the read model, its cell is asked for once (`worship.places-wanted` through the outbox); the answer
/// (`worship.places-found`) brings the places and closes the request.
struct WorshipRequestStore: Sendable {
    let client: PostgresClient
    let topic: String
    /// New requests (asked or asked again) in any hour, for all members together: this bounds the imports readings
    /// cause (an anonymous reading never asks, `PlacesSearch`). Past it a reading says `looking` and asks on a later
    /// reading.
    let perHour: Int
    /// Of those, the most one client network may cause in any hour (`worship_asks` counts them, by network only).
    let perNetworkPerHour: Int
    let logger: Logger

    /// An unanswered request is asked again after this (places-importer's import failed or was lost).
    static let askAgainAfterSeconds = 3_600
    /// An answer of none is trusted this long; then the cell is asked again (places open).
    static let noneHoldsForSeconds = 7 * 86_400

    /// Where the cell stands: asks (again) when it must, in one transaction with the outbox. A cell already asked
    /// and waiting, or answered, is read without a lock; only a new or stale request takes the hour's count.
    func status(latitude: Double, longitude: Double, radius: Double, network: String) async throws -> PlacesToPrayStatus {
        let cell = WorshipCell(latitude: latitude, longitude: longitude)
        if let current = try await Self.standing(try await client.tracedQuery(Self.standingQuery(cell), logger: logger)) { return current }
        return try await client.inTransaction(logger: logger) { connection in
            // The hour's count is exact when instances ask together; the cell is read again under the lock.
            try await connection.tracedQuery("SELECT pg_advisory_xact_lock(hashtext('appointment-booker worship requests'))", logger: logger)
            if let current = try await Self.standing(try await connection.tracedQuery(Self.standingQuery(cell), logger: logger)) {
                return current
            }
            let lastHour =
                try await connection.tracedQuery(
                    "SELECT count(*)::int FROM worship_requests WHERE requested_at > now() - interval '1 hour'", logger: logger
                ).decode(Int.self).collectAll().first ?? 0
            // Past the hour's limit nobody is asked: a later reading asks.
            guard lastHour < perHour else { return .looking }
            try await connection.tracedQuery("DELETE FROM worship_asks WHERE asked_at <= now() - interval '1 hour'", logger: logger)
            let networkLastHour =
                try await connection.tracedQuery("SELECT count(*)::int FROM worship_asks WHERE network = \(network)", logger: logger)
                .decode(Int.self).collectAll().first ?? 0
            // The network's share is spent: its members' readings wait like everyone's past the hour's limit.
            guard networkLastHour < perNetworkPerHour else { return .looking }
            try await connection.tracedQuery("INSERT INTO worship_asks (network) VALUES (\(network))", logger: logger)
            try await connection.tracedQuery(
                """
                INSERT INTO worship_requests (cell, requested_at) VALUES (\(cell.id), now())
                ON CONFLICT (cell) DO UPDATE SET requested_at = now(), answered_at = NULL
                """, logger: logger)
            let wanted = WorshipPlacesWanted(requestId: cell.id, latitude: latitude, longitude: longitude, radiusMeters: radius)
            try await Outbox.enqueue(
                EventEnvelope(type: EventTypes.worshipPlacesWanted, producer: "appointment-booker", key: cell.id, payload: wanted),
                toTopicNamed: topic, on: connection, logger: logger)
            return .looking
        }
    }

    /// Where the cell stands, read without a lock and without asking: for a reading that may not ask.
    func known(latitude: Double, longitude: Double) async throws -> PlacesToPrayStatus? {
        try await Self.standing(
            try await client.tracedQuery(Self.standingQuery(WorshipCell(latitude: latitude, longitude: longitude)), logger: logger))
    }

    /// The cell's status when it needs no request now: asked within the hour and waiting (`looking`), or answered
    /// within the week (`none`: the read model had nothing in the radius). Nil when it must be asked (again).
    private static func standingQuery(_ cell: WorshipCell) -> PostgresQuery {
        """
        SELECT answered_at IS NOT NULL FROM worship_requests
        WHERE cell = \(cell.id) AND (
            (answered_at IS NULL AND requested_at >= now() - make_interval(secs => \(askAgainAfterSeconds)))
            OR answered_at >= now() - make_interval(secs => \(noneHoldsForSeconds)))
        """
    }

    private static func standing(_ rows: PostgresRowSequence) async throws -> PlacesToPrayStatus? {
        guard let answered = try await rows.decode(Bool.self).collectAll().first else { return nil }
        return answered ? PlacesToPrayStatus.none : PlacesToPrayStatus.looking
    }

    /// places-importer's answer: its places join the read model and the request is closed.
    static func apply(_ found: WorshipPlacesFound, on connection: PostgresConnection, logger: Logger) async throws {
        for place in found.places {
            try await WorshipPlaceStore.apply(
                PlaceUpserted(
                    placeId: place.placeId, name: place.name, category: .worship, latitude: place.latitude,
                    longitude: place.longitude, address: place.address, openingHours: nil, phone: nil, website: nil, sources: []),
                on: connection, logger: logger)
        }
        try await connection.tracedQuery(
            "UPDATE worship_requests SET answered_at = now() WHERE cell = \(found.requestId)", logger: logger)
    }
}
