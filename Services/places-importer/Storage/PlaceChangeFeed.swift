import Foundation
import Logging
import PlacesImporterCore
import PostgresNIO

/// Reads the places changed since a watermark, for the in-memory index (P2). Every row carries the id of
/// the transaction that last wrote it (`changed_xid`, set by default and by trigger). The watermark is the
/// snapshot taken just before a read: transactions below its `xmax` and not in its in-progress list had
/// finished, so the read saw them; the next read takes only rows of transactions from `xmax` on and of those
/// that were in progress. No time window, so no change is missed however long its transaction ran, and a
/// long transaction elsewhere in the cluster does not make every read start over.
struct PlaceChangeFeed: PlaceChangeReading {
    let client: PostgresClient
    let logger: Logger

    /// Every place when `watermark` is nil, else those written by transactions it had not seen finish.
    func changes(since watermark: PlaceChangeWatermark?) async throws -> PlaceChanges {
        // Taken before the read: whatever had finished then, the read sees.
        let snapshot =
            try await client.tracedQuery(
                """
                SELECT pg_snapshot_xmax(s)::text, ARRAY(SELECT pg_snapshot_xip(s)::text)
                FROM pg_current_snapshot() AS s
                """,
                logger: logger
            ).decode((String, [String]).self).collectAll().first ?? ("0", [])
        let rows = try await client.tracedQuery(
            """
            SELECT \(unescaped: PlaceStore.columns), p.match_name, p.closed_at IS NOT NULL OR p.review = 'rejected' FROM places p
            WHERE p.changed_xid >= \(watermark?.xmax ?? "0")::xid8 OR p.changed_xid = ANY(\(watermark?.inProgress ?? [])::xid8[])
            """,
            logger: logger)
        var places: [(Place, String, Bool)] = []
        for try await row in rows.decode(
            (UUID, String, String, Double, Double, String?, String?, String?, String?, String?, String?, String, String, Bool).self)
        {
            places.append((PlaceStore.decode((row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9, row.10, row.11)), row.12, row.13))
        }
        return PlaceChanges(places: places, watermark: PlaceChangeWatermark(xmax: snapshot.0, inProgress: snapshot.1))
    }
}
