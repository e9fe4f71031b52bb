import Foundation
import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// The place catalogue (P1, P2, P4): upserts from the providers with cross-provider matching, and the
/// spatial queries, all on PostGIS geography points.
struct PlaceStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    let matchDistanceMetres: Double
    /// Topic of place events (tests use their own).
    let topic: String

    /// The places app lists workplaces only: places of worship are imported for the horoscope app (B4).
    static let isWorkplace = "p.category <> 'worship'"

    static let columns = """
        p.id, p.name, p.category, ST_Y(p.location::geometry), ST_X(p.location::geometry), p.address, p.opening_hours, p.phone,
        p.website, p.internet_access, p.added_by, p.review
        """
    typealias Row = (UUID, String, String, Double, Double, String?, String?, String?, String?, String?, String?, String)

    static func decode(_ row: Row) -> Place {
        Place(
            id: row.0, name: row.1, category: PlaceCategory(rawValue: row.2) ?? .other, latitude: row.3, longitude: row.4,
            address: row.5, openingHours: row.6, phone: row.7, website: row.8, internetAccess: row.9, addedBy: row.10,
            review: PlaceReview(rawValue: row.11) ?? .pending)
    }

    /// Applies one tile of candidates in one transaction, with set-based statements whatever the tile's
    /// size (see `PlaceBatchPlan` for the rules). A source seen before with the same fingerprint changes
    /// nothing and publishes nothing; a new source near a place of the same name joins that place; every
    /// place created or changed gets one `place.upserted` event with its state at commit.
    func upsert(_ candidates: [PlaceCandidate]) async throws -> UpsertOutcome {
        let candidates = PlaceBatchPlan.distinctSources(candidates)
        guard !candidates.isEmpty else { return UpsertOutcome() }
        return try await client.inTransaction(logger: logger) { connection in
            let known = try await knownSources(of: candidates, on: connection)
            try await rewrite(PlaceBatchPlan.rewrites(of: candidates, known: known), on: connection)
            let unknown = candidates.indices.filter { known[SourceKey(candidates[$0])] == nil }
            let matches = try await nearestSameName(for: unknown.map { candidates[$0] }, on: connection)
            let matchByIndex = Dictionary(uniqueKeysWithValues: zip(unknown, matches))
            let plan = PlaceBatchPlan(
                candidates: candidates, known: known, existingMatch: { matchByIndex[$0] ?? nil },
                matchDistanceMetres: matchDistanceMetres)
            try await insert(plan.newPlaces, on: connection)
            try await fillGaps(plan.fills, on: connection)
            try await recordSources(plan, on: connection)
            try await publish(plan.touched, on: connection)
            return plan.outcome
        }
    }

    private func knownSources(
        of candidates: [PlaceCandidate], on connection: PostgresConnection
    ) async throws -> [SourceKey: PlaceBatchPlan.KnownSource] {
        let rows = try await connection.tracedQuery(
            """
            SELECT s.provider, s.provider_id, s.place_id, s.fingerprint,
                p.primary_provider = s.provider AND p.primary_provider_id = s.provider_id
            FROM unnest(\(candidates.map(\.provider))::text[], \(candidates.map(\.providerId))::text[]) AS c(provider, provider_id)
            JOIN place_sources s ON s.provider = c.provider AND s.provider_id = c.provider_id
            JOIN places p ON p.id = s.place_id
            """,
            logger: logger
        ).decode((String, String, UUID, String, Bool).self).collectAll()
        var known: [SourceKey: PlaceBatchPlan.KnownSource] = [:]
        for (provider, providerId, placeId, fingerprint, isPrimary) in rows {
            known[SourceKey(provider: provider, providerId: providerId)] = .init(
                placeId: placeId, fingerprint: fingerprint, isPrimary: isPrimary)
        }
        return known
    }

    /// For each candidate, the nearest catalogue place with its match name within the match distance.
    private func nearestSameName(
        for candidates: [PlaceCandidate], on connection: PostgresConnection
    ) async throws -> [PlaceBatchPlan.ExistingMatch?] {
        guard !candidates.isEmpty else { return [] }
        let rows = try await connection.tracedQuery(
            """
            SELECT c.position, m.id, m.distance
            FROM unnest(\(candidates.map { MatchName.of($0.name) })::text[], \(candidates.map(\.longitude))::float8[],
                \(candidates.map(\.latitude))::float8[]) WITH ORDINALITY AS c(match_name, lon, lat, position)
            CROSS JOIN LATERAL (
                SELECT id, ST_Distance(location, ST_SetSRID(ST_MakePoint(c.lon, c.lat), 4326)::geography) AS distance
                FROM places
                -- A provider's place never joins a member's place awaiting review or rejected: it would be hidden
                -- with it (a member could suppress a real place by adding one of its name first).
                WHERE match_name = c.match_name AND review = 'approved'
                  AND ST_DWithin(location, ST_SetSRID(ST_MakePoint(c.lon, c.lat), 4326)::geography, \(matchDistanceMetres))
                ORDER BY location <-> ST_SetSRID(ST_MakePoint(c.lon, c.lat), 4326)::geography LIMIT 1
            ) m
            """,
            logger: logger
        ).decode((Int, UUID, Double).self).collectAll()
        var matches = [PlaceBatchPlan.ExistingMatch?](repeating: nil, count: candidates.count)
        for (position, id, distance) in rows where matches.indices.contains(position - 1) {
            matches[position - 1] = .init(placeId: id, distanceMetres: distance)
        }
        return matches
    }

    private func rewrite(_ rewrites: [(placeId: UUID, candidate: PlaceCandidate)], on connection: PostgresConnection) async throws {
        guard !rewrites.isEmpty else { return }
        let c = rewrites.map(\.candidate)
        try await connection.tracedQuery(
            """
            UPDATE places p SET name = r.name, match_name = r.match_name, category = r.category,
                location = ST_SetSRID(ST_MakePoint(r.lon, r.lat), 4326)::geography, address = r.address,
                opening_hours = r.opening_hours, phone = r.phone, website = r.website, internet_access = r.internet_access,
                updated_at = now()
            FROM unnest(\(rewrites.map(\.placeId))::uuid[], \(c.map(\.name))::text[], \(c.map { MatchName.of($0.name) })::text[],
                \(c.map(\.category.rawValue))::text[], \(c.map(\.longitude))::float8[], \(c.map(\.latitude))::float8[],
                \(NullableTextArray(c.map(\.address)))::text[], \(NullableTextArray(c.map(\.openingHours)))::text[], \(NullableTextArray(c.map(\.phone)))::text[], \(NullableTextArray(c.map(\.website)))::text[],
                \(NullableTextArray(c.map(\.internetAccess)))::text[])
                AS r(id, name, match_name, category, lon, lat, address, opening_hours, phone, website, internet_access)
            WHERE p.id = r.id
            """,
            logger: logger)
    }

    private func insert(_ newPlaces: [PlaceBatchPlan.NewPlace], on connection: PostgresConnection) async throws {
        guard !newPlaces.isEmpty else { return }
        let c = newPlaces.map(\.candidate)
        try await connection.tracedQuery(
            """
            INSERT INTO places (id, name, match_name, category, location, address, opening_hours, phone, website,
                internet_access, primary_provider, primary_provider_id)
            SELECT id, name, match_name, category, ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography, address, opening_hours,
                phone, website, internet_access, provider, provider_id
            FROM unnest(\(newPlaces.map(\.id))::uuid[], \(c.map(\.name))::text[], \(c.map { MatchName.of($0.name) })::text[],
                \(c.map(\.category.rawValue))::text[], \(c.map(\.longitude))::float8[], \(c.map(\.latitude))::float8[],
                \(NullableTextArray(c.map(\.address)))::text[], \(NullableTextArray(c.map(\.openingHours)))::text[], \(NullableTextArray(c.map(\.phone)))::text[], \(NullableTextArray(c.map(\.website)))::text[],
                \(NullableTextArray(c.map(\.internetAccess)))::text[], \(c.map(\.provider))::text[], \(c.map(\.providerId))::text[])
                AS n(id, name, match_name, category, lon, lat, address, opening_hours, phone, website, internet_access, provider,
                    provider_id)
            """,
            logger: logger)
    }

    /// A second provider only adds what the place does not know yet.
    private func fillGaps(_ fills: [(placeId: UUID, fill: PlaceBatchPlan.Fill)], on connection: PostgresConnection) async throws {
        guard !fills.isEmpty else { return }
        let f = fills.map(\.fill)
        try await connection.tracedQuery(
            """
            UPDATE places p SET address = COALESCE(p.address, g.address), opening_hours = COALESCE(p.opening_hours, g.opening_hours),
                phone = COALESCE(p.phone, g.phone), website = COALESCE(p.website, g.website),
                internet_access = COALESCE(p.internet_access, g.internet_access), updated_at = now()
            FROM unnest(\(fills.map(\.placeId))::uuid[], \(NullableTextArray(f.map(\.address)))::text[], \(NullableTextArray(f.map(\.openingHours)))::text[],
                \(NullableTextArray(f.map(\.phone)))::text[], \(NullableTextArray(f.map(\.website)))::text[], \(NullableTextArray(f.map(\.internetAccess)))::text[])
                AS g(id, address, opening_hours, phone, website, internet_access)
            WHERE p.id = g.id
            """,
            logger: logger)
    }

    /// New sources point at their place; known sources that changed get their new fingerprint.
    private func recordSources(_ plan: PlaceBatchPlan, on connection: PostgresConnection) async throws {
        if !plan.newSources.isEmpty {
            let c = plan.newSources.map(\.candidate)
            try await connection.tracedQuery(
                """
                INSERT INTO place_sources (provider, provider_id, place_id, fingerprint)
                SELECT * FROM unnest(\(c.map(\.provider))::text[], \(c.map(\.providerId))::text[],
                    \(plan.newSources.map(\.placeId))::uuid[], \(c.map(\.fingerprint))::text[])
                """,
                logger: logger)
        }
        if !plan.changedSources.isEmpty {
            let c = plan.changedSources
            try await connection.tracedQuery(
                """
                UPDATE place_sources s SET fingerprint = u.fingerprint
                FROM unnest(\(c.map(\.provider))::text[], \(c.map(\.providerId))::text[], \(c.map(\.fingerprint))::text[])
                    AS u(provider, provider_id, fingerprint)
                WHERE s.provider = u.provider AND s.provider_id = u.provider_id
                """,
                logger: logger)
        }
    }

    /// Puts the place's current state in the outbox as `place.upserted`.
    func publish(_ placeId: UUID, on connection: PostgresConnection) async throws {
        try await publish([placeId], on: connection)
    }

    /// Puts each place's current state in the outbox as `place.upserted`, in the order given, with one
    /// read and one outbox statement.
    func publish(_ placeIds: [UUID], on connection: PostgresConnection) async throws {
        guard !placeIds.isEmpty else { return }
        let rows = try await connection.tracedQuery(
            """
            SELECT \(unescaped: Self.columns),
                ARRAY(SELECT provider || ':' || provider_id FROM place_sources WHERE place_id = p.id ORDER BY 1),
                p.closed_at IS NOT NULL
            FROM places p WHERE p.id = ANY(\(placeIds)::uuid[])
            """,
            logger: logger
        ).decode((UUID, String, String, Double, Double, String?, String?, String?, String?, String?, String?, String, [String], Bool).self)
            .collectAll()
        var found: [UUID: (place: Place, sources: [String], closed: Bool)] = [:]
        for row in rows {
            let place = Self.decode((row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9, row.10, row.11))
            found[place.id] = (place, row.12, row.13)
        }
        let envelopes = placeIds.compactMap { id -> EventEnvelope<PlaceUpserted>? in
            // Others learn of a member's place only once an admin approved it (places to pray come from these).
            guard let (place, sources, closed) = found[id], place.review == .approved else { return nil }
            let payload = PlaceUpserted(
                placeId: place.id, name: place.name, category: place.category, latitude: place.latitude,
                longitude: place.longitude, address: place.address, openingHours: place.openingHours, phone: place.phone,
                website: place.website, sources: sources, closed: closed ? true : nil)
            return EventEnvelope(
                type: EventTypes.placeUpserted, producer: ServiceIdentity.placesImporter.name, key: place.id.uuidString, payload: payload)
        }
        try await Outbox.enqueue(all: envelopes, toTopicNamed: topic, on: connection, logger: logger)
    }

    func find(_ id: UUID, on connection: PostgresConnection) async throws -> Place? {
        try await connection.tracedQuery("SELECT \(unescaped: Self.columns) FROM places p WHERE p.id = \(id)", logger: logger)
            .decode(Row.self).collectAll().first.map(Self.decode)
    }

    func find(_ id: UUID) async throws -> Place? {
        try await client.withConnection { try await find(id, on: $0) }
    }
}
