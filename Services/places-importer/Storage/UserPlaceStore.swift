import Foundation
import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// What users do with places: nearby lists with their pin states (P2), ratings and aggregates (P3),
/// saves and pin colours, and adding a place (P4).
struct UserPlaceStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    let places: PlaceStore

    /// The asking user's pin for place `p`, with the user bound once as `me.uid` (see `FROM`): their colour,
    /// else blue when they added, rated or saved it, else red.
    static let pinExpression = """
        COALESCE(
            (SELECT colour FROM pin_colours c WHERE c.user_id = me.uid AND c.place_id = p.id),
            CASE WHEN p.added_by = me.uid
                   OR EXISTS (SELECT 1 FROM place_ratings r WHERE r.place_id = p.id AND r.user_id = me.uid)
                   OR EXISTS (SELECT 1 FROM saved_places s WHERE s.user_id = me.uid AND s.place_id = p.id)
                 THEN 'blue' ELSE 'red' END)
        """

    /// Whether place `p` is listed for the asker bound as `me.uid`: approved, or awaiting review and theirs.
    static let visibleToMe = "(p.review = 'approved' OR (p.review = 'pending' AND p.added_by = me.uid))"

    /// Places within `radius` metres of a point, nearest first (KNN on the GiST index). Distances are on the
    /// sphere (`use_spheroid` false): several times cheaper than the spheroid, and within 0.5% of it.
    func near(latitude: Double, longitude: Double, radiusMetres: Double, user: String, limit: Int, offset: Int) async throws -> [PinnedPlace] {
        let rows = try await client.tracedExecute(
            NearbyPlacesStatement(
                user: user, latitude: latitude, longitude: longitude, radiusMetres: radiusMetres, limit: limit, offset: offset),
            logger: logger)
        var result: [PinnedPlace] = []
        for try await row in rows {
            let place = PlaceStore.decode((row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9, row.10, row.11))
            result.append(PinnedPlace(place: place, pin: row.12, distanceMetres: row.13))
        }
        return result
    }

    /// Places inside a box (edges included), by folded name in code-point order, then id. `&&` finds the
    /// candidates on the index, but on geography it compares 3-D boxes around great-circle edges, which reach
    /// past the box's parallels; the coordinates decide.
    func inBox(_ box: GeoBox, user: String, limit: Int, offset: Int) async throws -> [PinnedPlace] {
        let rows = try await client.tracedQuery(
            """
            SELECT \(unescaped: PlaceStore.columns),
                \(unescaped: Self.pinExpression)
            FROM places p CROSS JOIN (SELECT \(user)::text AS uid) AS me
            WHERE p.location && ST_MakeEnvelope(\(box.west), \(box.south), \(box.east), \(box.north), 4326)::geography
              AND ST_Y(p.location::geometry) BETWEEN \(box.south) AND \(box.north)
              AND ST_X(p.location::geometry) BETWEEN \(box.west) AND \(box.east)
              AND p.closed_at IS NULL AND \(unescaped: PlaceStore.isWorkplace) AND \(unescaped: Self.visibleToMe)
            ORDER BY p.match_name COLLATE "C", p.id
            LIMIT \(limit) OFFSET \(offset)
            """,
            logger: logger)
        var result: [PinnedPlace] = []
        for try await row in rows.decode(
            (UUID, String, String, Double, Double, String?, String?, String?, String?, String?, String?, String, String).self)
        {
            let place = PlaceStore.decode((row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9, row.10, row.11))
            result.append(PinnedPlace(place: place, pin: row.12, distanceMetres: nil))
        }
        return result
    }

    /// Everything that decides the user's pins, for the in-memory nearby path.
    func pins(user: String) async throws -> UserPins {
        let rows = try await client.tracedQuery(
            """
            SELECT place_id, colour FROM pin_colours WHERE user_id = \(user)
            UNION ALL SELECT place_id, NULL FROM place_ratings WHERE user_id = \(user)
            UNION ALL SELECT place_id, NULL FROM saved_places WHERE user_id = \(user)
            UNION ALL SELECT id, NULL FROM places WHERE added_by = \(user)
            """,
            logger: logger)
        var pins = UserPins()
        for try await (placeId, colour) in rows.decode((UUID, String?).self) {
            if let colour { pins.colours[placeId] = colour } else { pins.touched.insert(placeId) }
        }
        return pins
    }

    func pin(placeId: UUID, user: String) async throws -> String {
        let rows = try await client.tracedQuery(
            """
            SELECT \(unescaped: Self.pinExpression)
            FROM places p CROSS JOIN (SELECT \(user)::text AS uid) AS me WHERE p.id = \(placeId)
            """,
            logger: logger)
        return try await rows.decode(String.self).collectAll().first ?? PinColour.untouched
    }

    func aggregate(placeId: UUID, on connection: PostgresConnection) async throws -> PlaceRatingAggregate {
        let row = try await connection.tracedQuery(
            """
            SELECT count(*), avg(noise)::float8, avg(outlets)::float8, avg(wifi)::float8, avg(cost)::float8, avg(seating)::float8
            FROM place_ratings WHERE place_id = \(placeId)
            """,
            logger: logger
        ).decode((Int, Double?, Double?, Double?, Double?, Double?).self).collectAll().first
        var averages: [String: Double] = [:]
        if let row, row.0 > 0 {
            for (name, value) in zip(Rating.scoreNames, [row.1, row.2, row.3, row.4, row.5]) {
                if let value { averages[name] = (value * 100).rounded() / 100 }
            }
        }
        let options = try await connection.tracedQuery(
            "SELECT option, count(*) FROM place_ratings, unnest(menu_options) AS option WHERE place_id = \(placeId) GROUP BY option",
            logger: logger
        ).decode((String, Int).self).collectAll()
        let types = try await connection.tracedQuery(
            "SELECT business_type, count(*) FROM place_ratings WHERE place_id = \(placeId) GROUP BY business_type", logger: logger
        ).decode((String, Int).self).collectAll()
        return PlaceRatingAggregate(
            count: row?.0 ?? 0, averages: averages, menuOptions: Dictionary(uniqueKeysWithValues: options),
            businessTypes: Dictionary(uniqueKeysWithValues: types))
    }

    func aggregate(placeId: UUID) async throws -> PlaceRatingAggregate {
        try await client.withConnection { try await aggregate(placeId: placeId, on: $0) }
    }

    func rating(placeId: UUID, user: String) async throws -> Rating? {
        let rows = try await client.tracedQuery(
            """
            SELECT noise, outlets, wifi, cost, seating, menu_options, business_type, notes
            FROM place_ratings WHERE place_id = \(placeId) AND user_id = \(user)
            """,
            logger: logger)
        return try await rows.decode((Int, Int, Int, Int, Int, [String], String, String).self).collectAll().first.map {
            Rating(noise: $0.0, outlets: $0.1, wifi: $0.2, cost: $0.3, seating: $0.4, menuOptions: $0.5, businessType: $0.6, notes: $0.7)
        }
    }

    /// Stores (or replaces) the user's rating and publishes `place.rated` with the new aggregate, once `check`
    /// accepted the other places the user rated in the last 24 hours (counted under a lock of the user's).
    func rate(
        placeId: UUID, user: String, rating: Rating, check: @Sendable (RecentCount) throws -> Void
    ) async throws -> PlaceRatingAggregate {
        try await client.inTransaction(logger: logger) { connection in
            // One user's ratings are counted one after another.
            try await connection.tracedQuery("SELECT pg_advisory_xact_lock(hashtextextended(\("places-rated:" + user), 0))", logger: logger)
            let (rated, oldestAgesOutIn) =
                try await connection.tracedQuery(
                    """
                    SELECT count(*)::bigint, coalesce(extract(epoch FROM min(rated_at) + interval '1 day' - now()), 0)::float8
                    FROM place_ratings WHERE user_id = \(user) AND place_id <> \(placeId) AND rated_at > now() - interval '1 day'
                    """, logger: logger
                ).decode((Int, Double).self).collectAll().first ?? (0, 0)
            try check(RecentCount(count: rated, oldestAgesOutInSeconds: oldestAgesOutIn))
            return try await rate(placeId: placeId, user: user, rating: rating, on: connection)
        }
    }

    private func rate(placeId: UUID, user: String, rating: Rating, on connection: PostgresConnection) async throws -> PlaceRatingAggregate {
        try await connection.tracedQuery(
            """
            INSERT INTO place_ratings (place_id, user_id, noise, outlets, wifi, cost, seating, menu_options, business_type, notes)
            VALUES (\(placeId), \(user), \(rating.noise), \(rating.outlets), \(rating.wifi), \(rating.cost), \(rating.seating),
                \(rating.menuOptions), \(rating.businessType), \(rating.notes))
            ON CONFLICT (place_id, user_id) DO UPDATE SET noise = EXCLUDED.noise, outlets = EXCLUDED.outlets,
                wifi = EXCLUDED.wifi, cost = EXCLUDED.cost, seating = EXCLUDED.seating, menu_options = EXCLUDED.menu_options,
                business_type = EXCLUDED.business_type, notes = EXCLUDED.notes, rated_at = now()
            """,
            logger: logger)
        let aggregate = try await aggregate(placeId: placeId, on: connection)
        // A place awaiting review is not announced to anyone, its ratings neither (X3).
        let approved =
            try await connection.tracedQuery(
                "SELECT review = 'approved' FROM places WHERE id = \(placeId)", logger: logger
            ).decode(Bool.self).collectAll().first ?? false
        guard approved else { return aggregate }
        let envelope = EventEnvelope(
            type: EventTypes.placeRated, producer: ServiceIdentity.placesImporter.name, key: placeId.uuidString,
            payload: PlaceRated(placeId: placeId, userId: user, ratingCount: aggregate.count, averages: aggregate.averages))
        try await Outbox.enqueue(envelope, toTopicNamed: places.topic, on: connection, logger: logger)
        return aggregate
    }

    func setPin(placeId: UUID, user: String, colour: PinColour?) async throws {
        if let colour {
            try await client.tracedQuery(
                """
                INSERT INTO pin_colours (user_id, place_id, colour) VALUES (\(user), \(placeId), \(colour.rawValue))
                ON CONFLICT (user_id, place_id) DO UPDATE SET colour = EXCLUDED.colour
                """,
                logger: logger)
        } else {
            try await client.tracedQuery("DELETE FROM pin_colours WHERE user_id = \(user) AND place_id = \(placeId)", logger: logger)
        }
    }

    func setSaved(placeId: UUID, user: String, saved: Bool) async throws {
        if saved {
            try await client.tracedQuery(
                "INSERT INTO saved_places (user_id, place_id) VALUES (\(user), \(placeId)) ON CONFLICT DO NOTHING", logger: logger)
        } else {
            try await client.tracedQuery("DELETE FROM saved_places WHERE user_id = \(user) AND place_id = \(placeId)", logger: logger)
        }
    }

    /// Adds a user's place with its optional rating and pin colour in one transaction: all of it or nothing, once
    /// `check` accepted the places the user added in the last 24 hours (counted under a lock of the user's).
    func add(
        _ candidate: PlaceCandidate, user: String, rating: Rating?, colour: PinColour?, check: @Sendable (RecentCount) throws -> Void
    ) async throws -> UUID {
        try await client.inTransaction(logger: logger) { connection in
            // One user's additions are counted one after another.
            try await connection.tracedQuery("SELECT pg_advisory_xact_lock(hashtextextended(\("places-added:" + user), 0))", logger: logger)
            let (added, oldestAgesOutIn) =
                try await connection.tracedQuery(
                    """
                    SELECT count(*)::bigint, coalesce(extract(epoch FROM min(created_at) + interval '1 day' - now()), 0)::float8
                    FROM places WHERE added_by = \(user) AND created_at > now() - interval '1 day'
                    """, logger: logger
                ).decode((Int, Double).self).collectAll().first ?? (0, 0)
            try check(RecentCount(count: added, oldestAgesOutInSeconds: oldestAgesOutIn))
            let placeId = UUID()
            try await connection.tracedQuery(
                """
                INSERT INTO places (id, name, match_name, category, location, address, opening_hours, phone, website,
                    internet_access, added_by, primary_provider, primary_provider_id, review)
                VALUES (\(placeId), \(candidate.name), \(MatchName.of(candidate.name)), \(candidate.category.rawValue),
                    \("SRID=4326;POINT(\(candidate.longitude) \(candidate.latitude))")::geography, \(candidate.address),
                    \(candidate.openingHours), \(candidate.phone), \(candidate.website), NULL, \(user), 'user', \(placeId.uuidString),
                    'pending')
                """,
                logger: logger)
            try await connection.tracedQuery(
                """
                INSERT INTO place_sources (provider, provider_id, place_id, fingerprint)
                VALUES ('user', \(placeId.uuidString), \(placeId), \(candidate.fingerprint))
                """,
                logger: logger)
            try await connection.tracedQuery(
                "INSERT INTO saved_places (user_id, place_id) VALUES (\(user), \(placeId))", logger: logger)
            if let colour {
                try await connection.tracedQuery(
                    "INSERT INTO pin_colours (user_id, place_id, colour) VALUES (\(user), \(placeId), \(colour.rawValue))", logger: logger)
            }
            // No `place.upserted` yet: others hear of it when an admin approves it (`PlaceReviews`).
            if let rating {
                _ = try await rate(placeId: placeId, user: user, rating: rating, on: connection)
            }
            return placeId
        }
    }
}
