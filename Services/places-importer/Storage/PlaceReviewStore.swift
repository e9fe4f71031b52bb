import Foundation
import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// The admins' review of member-added places (X3, P4): a place a member adds waits as `pending`, shown to its
/// adder only, until an admin approves it (then it is listed for everyone and published as `place.upserted`)
/// or rejects it (then nobody else ever sees it).
struct PlaceReviewStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    let places: PlaceStore

    /// Places awaiting review, oldest first.
    func awaiting(limit: Int, offset: Int) async throws -> [ReviewedPlace] {
        let rows = try await client.tracedQuery(
            """
            SELECT \(unescaped: PlaceStore.columns), p.created_at FROM places p
            WHERE p.review = 'pending' ORDER BY p.created_at, p.id LIMIT \(limit) OFFSET \(offset)
            """,
            logger: logger)
        var result: [ReviewedPlace] = []
        for try await row in rows.decode(
            (UUID, String, String, Double, Double, String?, String?, String?, String?, String?, String?, String, Date).self)
        {
            let place = PlaceStore.decode((row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9, row.10, row.11))
            result.append(ReviewedPlace(place: place, addedBy: place.addedBy ?? "", addedAt: row.12))
        }
        return result
    }

    /// Where the place stands with the admins, and who added it; nil when there is no such place.
    func standing(of placeId: UUID) async throws -> ReviewStanding? {
        try await client.tracedQuery("SELECT p.review, p.added_by FROM places p WHERE p.id = \(placeId)", logger: logger)
            .decode((String, String?).self).collectAll().first.map {
                ReviewStanding(review: PlaceReview(rawValue: $0.0) ?? .pending, addedBy: $0.1)
            }
    }

    /// Approves or rejects a place if it can still be decided (`PlaceReviewRules`, kept in the statement too, for a
    /// decision racing this one); an approval publishes it in the same transaction. nil when it cannot (any more).
    func decide(_ placeId: UUID, _ decision: ReviewDecision) async throws -> ReviewedPlace? {
        try await client.inTransaction(logger: logger) { connection in
            let rows = try await connection.tracedQuery(
                """
                UPDATE places SET review = \(decision.outcome.rawValue)
                WHERE id = \(placeId) AND review = 'pending' AND added_by IS NOT NULL
                RETURNING added_by, created_at
                """,
                logger: logger
            ).decode((String, Date).self).collectAll()
            guard let (addedBy, addedAt) = rows.first else { return nil }
            if decision.outcome == .approved {
                try await places.publish(placeId, on: connection)
            }
            guard let place = try await places.find(placeId, on: connection) else { return nil }
            return ReviewedPlace(place: place, addedBy: addedBy, addedAt: addedAt)
        }
    }
}
