import Foundation
import Logging
import PostgresNIO
import Shared

/// The place catalogue (P1, P2, P4): upserts from the providers with cross-provider matching, and the
/// spatial queries, all on PostGIS geography points.
struct PlaceStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    let matchDistanceMetres: Double
    /// Topic of place events (tests use their own).
    let topic: String

    struct UpsertOutcome: Sendable, Equatable {
        var created = 0
        var changed = 0
        var unchanged = 0

        static func += (lhs: inout UpsertOutcome, rhs: UpsertOutcome) {
            lhs.created += rhs.created
            lhs.changed += rhs.changed
            lhs.unchanged += rhs.unchanged
        }
    }

    static let columns = """
        p.id, p.name, p.category, ST_Y(p.location::geometry), ST_X(p.location::geometry), p.address, p.opening_hours, p.phone,
        p.website, p.internet_access, p.added_by
        """
    typealias Row = (UUID, String, String, Double, Double, String?, String?, String?, String?, String?, String?)

    static func decode(_ row: Row) -> Place {
        Place(
            id: row.0, name: row.1, category: PlaceCategory(rawValue: row.2) ?? .other, latitude: row.3, longitude: row.4,
            address: row.5, openingHours: row.6, phone: row.7, website: row.8, internetAccess: row.9, addedBy: row.10)
    }

    /// Applies one tile of candidates in one transaction. A source seen before with the same fingerprint
    /// changes nothing and publishes nothing; a new source near a place of the same name joins that place.
    func upsert(_ candidates: [PlaceCandidate]) async throws -> UpsertOutcome {
        try await client.inTransaction(logger: logger) { connection in
            var outcome = UpsertOutcome()
            for candidate in candidates {
                switch try await upsert(candidate, on: connection) {
                case .created: outcome.created += 1
                case .changed: outcome.changed += 1
                case .unchanged: outcome.unchanged += 1
                }
            }
            return outcome
        }
    }

    enum Change { case created, changed, unchanged }

    private func upsert(_ candidate: PlaceCandidate, on connection: PostgresConnection) async throws -> Change {
        let fingerprint = candidate.fingerprint
        let point = "SRID=4326;POINT(\(candidate.longitude) \(candidate.latitude))"
        let known = try await connection.query(
            """
            SELECT s.place_id, s.fingerprint, p.primary_provider = \(candidate.provider) AND p.primary_provider_id = \(candidate.providerId)
            FROM place_sources s JOIN places p ON p.id = s.place_id
            WHERE s.provider = \(candidate.provider) AND s.provider_id = \(candidate.providerId)
            """,
            logger: logger
        ).decode((UUID, String, Bool).self).collectAll().first
        if let (placeId, previous, isPrimary) = known {
            guard previous != fingerprint else { return .unchanged }
            if isPrimary {
                try await connection.query(
                    """
                    UPDATE places SET name = \(candidate.name), match_name = \(MatchName.of(candidate.name)),
                        category = \(candidate.category.rawValue), location = \(point)::geography, address = \(candidate.address),
                        opening_hours = \(candidate.openingHours), phone = \(candidate.phone), website = \(candidate.website),
                        internet_access = \(candidate.internetAccess), updated_at = now()
                    WHERE id = \(placeId)
                    """,
                    logger: logger)
            } else {
                try await fillGaps(placeId, from: candidate, on: connection)
            }
            try await connection.query(
                """
                UPDATE place_sources SET fingerprint = \(fingerprint)
                WHERE provider = \(candidate.provider) AND provider_id = \(candidate.providerId)
                """,
                logger: logger)
            try await publish(placeId, on: connection)
            return .changed
        }
        let match = try await connection.query(
            """
            SELECT id FROM places
            WHERE match_name = \(MatchName.of(candidate.name))
              AND ST_DWithin(location, \(point)::geography, \(matchDistanceMetres))
            ORDER BY location <-> \(point)::geography LIMIT 1
            """,
            logger: logger
        ).decode(UUID.self).collectAll().first
        let placeId: UUID
        let change: Change
        if let match {
            placeId = match
            try await fillGaps(placeId, from: candidate, on: connection)
            change = .changed
        } else {
            placeId = UUID()
            try await connection.query(
                """
                INSERT INTO places (id, name, match_name, category, location, address, opening_hours, phone, website,
                    internet_access, primary_provider, primary_provider_id)
                VALUES (\(placeId), \(candidate.name), \(MatchName.of(candidate.name)), \(candidate.category.rawValue),
                    \(point)::geography, \(candidate.address), \(candidate.openingHours), \(candidate.phone), \(candidate.website),
                    \(candidate.internetAccess), \(candidate.provider), \(candidate.providerId))
                """,
                logger: logger)
            change = .created
        }
        try await connection.query(
            """
            INSERT INTO place_sources (provider, provider_id, place_id, fingerprint)
            VALUES (\(candidate.provider), \(candidate.providerId), \(placeId), \(fingerprint))
            """,
            logger: logger)
        try await publish(placeId, on: connection)
        return change
    }

    /// A second provider only adds what the place does not know yet.
    private func fillGaps(_ placeId: UUID, from candidate: PlaceCandidate, on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            UPDATE places SET address = COALESCE(address, \(candidate.address)),
                opening_hours = COALESCE(opening_hours, \(candidate.openingHours)), phone = COALESCE(phone, \(candidate.phone)),
                website = COALESCE(website, \(candidate.website)), internet_access = COALESCE(internet_access, \(candidate.internetAccess)),
                updated_at = now()
            WHERE id = \(placeId)
            """,
            logger: logger)
    }

    /// Puts the place's current state in the outbox as `place.upserted`.
    func publish(_ placeId: UUID, on connection: PostgresConnection) async throws {
        guard let place = try await find(placeId, on: connection) else { return }
        let sources = try await connection.query(
            "SELECT provider || ':' || provider_id FROM place_sources WHERE place_id = \(placeId) ORDER BY 1", logger: logger
        ).decode(String.self).collectAll()
        let payload = PlaceUpserted(
            placeId: place.id, name: place.name, category: place.category.rawValue, latitude: place.latitude,
            longitude: place.longitude, address: place.address, openingHours: place.openingHours, phone: place.phone,
            website: place.website, sources: sources)
        let envelope = EventEnvelope(
            type: EventTypes.placeUpserted, producer: ServiceIdentity.placesImporter.name, key: place.id.uuidString, payload: payload)
        try await Outbox.enqueue(envelope, toTopicNamed: topic, on: connection, logger: logger)
    }

    func find(_ id: UUID, on connection: PostgresConnection) async throws -> Place? {
        try await connection.query("SELECT \(unescaped: Self.columns) FROM places p WHERE p.id = \(id)", logger: logger)
            .decode(Row.self).collectAll().first.map(Self.decode)
    }

    func find(_ id: UUID) async throws -> Place? {
        try await client.withConnection { try await find(id, on: $0) }
    }
}
