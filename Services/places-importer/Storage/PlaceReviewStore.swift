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

    enum Decision: String, Sendable {
        case approve, reject
    }

    /// A place with who added it and when, as the admin reviews it.
    struct Reviewed: Sendable {
        var place: Place
        var addedBy: String
        var addedAt: Date
    }

    enum Outcome: Sendable {
        case decided(Reviewed)
        case notFound
        /// Already approved or rejected (or an imported place, which needs no review).
        case notPending(PlaceReview)
    }

    /// Places awaiting review, oldest first.
    func awaiting(limit: Int, offset: Int) async throws -> [Reviewed] {
        let rows = try await client.tracedQuery(
            """
            SELECT \(unescaped: PlaceStore.columns), p.created_at FROM places p
            WHERE p.review = 'pending' ORDER BY p.created_at, p.id LIMIT \(limit) OFFSET \(offset)
            """,
            logger: logger)
        var result: [Reviewed] = []
        for try await row in rows.decode(
            (UUID, String, String, Double, Double, String?, String?, String?, String?, String?, String?, String, Date).self)
        {
            let place = PlaceStore.decode((row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9, row.10, row.11))
            result.append(Reviewed(place: place, addedBy: place.addedBy ?? "", addedAt: row.12))
        }
        return result
    }

    /// Approves or rejects a pending place; an approval publishes it in the same transaction.
    func decide(_ placeId: UUID, _ decision: Decision) async throws -> Outcome {
        try await client.inTransaction(logger: logger) { connection in
            let rows = try await connection.tracedQuery(
                "SELECT p.review, p.added_by, p.created_at FROM places p WHERE p.id = \(placeId) FOR UPDATE", logger: logger
            ).decode((String, String?, Date).self).collectAll()
            guard let (current, addedBy, addedAt) = rows.first else { return .notFound }
            let review = PlaceReview(rawValue: current) ?? .pending
            guard review == .pending, let addedBy else { return .notPending(review) }
            let decided: PlaceReview = decision == .approve ? .approved : .rejected
            try await connection.tracedQuery(
                "UPDATE places SET review = \(decided.rawValue) WHERE id = \(placeId)", logger: logger)
            if decided == .approved {
                try await places.publish(placeId, on: connection)
            }
            guard let place = try await places.find(placeId, on: connection) else { return .notFound }
            return .decided(Reviewed(place: place, addedBy: addedBy, addedAt: addedAt))
        }
    }
}
