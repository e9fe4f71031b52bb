import Logging
import PlatformPostgres
import PostgresNIO

/// warning-detector's part in an account's end (U9). Deleted: the account's favourites, notification
/// settings, devices and deliveries go (nothing more is pushed to it), and news it published as an admin keeps
/// its text without its author. Merged: all of it follows to the account the install merged into, whose own
/// settings win where both set the same city.
struct PushAudienceOwner: AccountDataOwner {
    func erase(user: String, on connection: PostgresConnection, logger: Logger) async throws {
        for table in ["push_deliveries", "devices", "notification_settings", "favourites"] {
            try await connection.tracedQuery("DELETE FROM \(unescaped: table) WHERE user_id = \(user)", logger: logger)
        }
        try await connection.tracedQuery("UPDATE news SET published_by = 'erased' WHERE published_by = \(user)", logger: logger)
    }

    func merge(from: String, into: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery(
            """
            INSERT INTO favourites (user_id, city_id, city) SELECT \(into), city_id, city FROM favourites WHERE user_id = \(from)
            ON CONFLICT (user_id, city_id) DO NOTHING
            """, logger: logger)
        try await connection.tracedQuery(
            """
            INSERT INTO notification_settings (user_id, city_id, forecasts, warnings)
            SELECT \(into), city_id, forecasts, warnings FROM notification_settings WHERE user_id = \(from)
            ON CONFLICT (user_id, city_id) DO NOTHING
            """, logger: logger)
        // A device is one phone: it now belongs to the merged account, and so do its deliveries in flight.
        try await connection.tracedQuery("UPDATE devices SET user_id = \(into) WHERE user_id = \(from)", logger: logger)
        try await connection.tracedQuery("UPDATE push_deliveries SET user_id = \(into) WHERE user_id = \(from)", logger: logger)
        try await connection.tracedQuery("DELETE FROM notification_settings WHERE user_id = \(from)", logger: logger)
        try await connection.tracedQuery("DELETE FROM favourites WHERE user_id = \(from)", logger: logger)
    }
}
