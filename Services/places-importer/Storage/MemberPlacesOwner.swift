import Logging
import PlatformPostgres
import PostgresNIO

/// places-importer's part in an account's end (U9). Deleted: the account's saved places and pin colours go;
/// its ratings stay for everyone's averages under an id of their own that names nobody, and the places it added
/// or asked to import stay without it. Merged: everything follows to the account the install merged into, whose
/// own rating of a place both rated is the one kept.
struct MemberPlacesOwner: AccountDataOwner {
    func erase(user: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery("DELETE FROM saved_places WHERE user_id = \(user)", logger: logger)
        try await connection.tracedQuery("DELETE FROM pin_colours WHERE user_id = \(user)", logger: logger)
        try await connection.tracedQuery(
            "UPDATE place_ratings SET user_id = 'erased:' || gen_random_uuid() WHERE user_id = \(user)", logger: logger)
        try await connection.tracedQuery("UPDATE places SET added_by = NULL WHERE added_by = \(user)", logger: logger)
        try await connection.tracedQuery("UPDATE import_areas SET requested_by = NULL WHERE requested_by = \(user)", logger: logger)
    }

    func merge(from: String, into: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery(
            """
            DELETE FROM place_ratings f WHERE f.user_id = \(from)
                AND EXISTS (SELECT 1 FROM place_ratings i WHERE i.user_id = \(into) AND i.place_id = f.place_id)
            """, logger: logger)
        try await connection.tracedQuery("UPDATE place_ratings SET user_id = \(into) WHERE user_id = \(from)", logger: logger)
        for table in ["saved_places", "pin_colours"] {
            try await connection.tracedQuery(
                """
                DELETE FROM \(unescaped: table) f WHERE f.user_id = \(from)
                    AND EXISTS (SELECT 1 FROM \(unescaped: table) i WHERE i.user_id = \(into) AND i.place_id = f.place_id)
                """, logger: logger)
            try await connection.tracedQuery("UPDATE \(unescaped: table) SET user_id = \(into) WHERE user_id = \(from)", logger: logger)
        }
        try await connection.tracedQuery("UPDATE places SET added_by = \(into) WHERE added_by = \(from)", logger: logger)
        try await connection.tracedQuery("UPDATE import_areas SET requested_by = \(into) WHERE requested_by = \(from)", logger: logger)
    }
}
