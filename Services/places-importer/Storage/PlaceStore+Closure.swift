import Foundation
import PlatformEvents
import PlatformPostgres
import PostgresNIO

extension PlaceStore {
    /// After a whole, successful import of `box`: closes the provider places that vanished and reopens closed
    /// ones seen again (see `PlaceClosure`), publishing each change as `place.upserted`, in one transaction.
    /// Places of worship are judged only by a run that asked for them (`includesWorship`): an area without them
    /// overlapping one with them must not close them.
    func closeVanished(
        in box: GeoBox, seen: Set<SourceKey>, judgedProviders: Set<String>, includesWorship: Bool
    ) async throws -> PlaceClosure {
        try await client.inTransaction(logger: logger) { connection in
            let rows = try await connection.tracedQuery(
                """
                SELECT p.id, p.closed_at IS NOT NULL, array_agg(s.provider), array_agg(s.provider_id)
                FROM places p JOIN place_sources s ON s.place_id = p.id
                WHERE p.added_by IS NULL AND (p.category <> \(PlaceCategory.worship.rawValue) OR \(includesWorship))
                  AND p.location && ST_MakeEnvelope(\(box.west), \(box.south), \(box.east), \(box.north), 4326)::geography
                  AND ST_Y(p.location::geometry) BETWEEN \(box.south) AND \(box.north)
                  AND ST_X(p.location::geometry) BETWEEN \(box.west) AND \(box.east)
                GROUP BY p.id
                """,
                logger: logger
            ).decode((UUID, Bool, [String], [String]).self).collectAll()
            let known = rows.map { id, isClosed, providers, providerIds in
                PlaceClosure.Known(
                    id: id, isClosed: isClosed, sources: zip(providers, providerIds).map { SourceKey(provider: $0, providerId: $1) })
            }
            let closure = PlaceClosure(known: known, seen: seen, judgedProviders: judgedProviders)
            if !closure.closing.isEmpty {
                try await connection.tracedQuery(
                    "UPDATE places SET closed_at = now(), updated_at = now() WHERE id = ANY(\(closure.closing)::uuid[])", logger: logger)
            }
            if !closure.reopening.isEmpty {
                try await connection.tracedQuery(
                    "UPDATE places SET closed_at = NULL, updated_at = now() WHERE id = ANY(\(closure.reopening)::uuid[])", logger: logger)
            }
            try await publish(closure.closing + closure.reopening, on: connection)
            return closure
        }
    }
}
