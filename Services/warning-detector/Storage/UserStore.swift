import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// What the service knows of users (A4): their favourites (from weather-fetcher's events), their
/// notification settings (only what differs from "everything on"), and their devices.
struct UserStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// The devices one account keeps (`DEVICES_PER_ACCOUNT`): each gets a push per followed city and day, so the
    /// oldest go when a new one comes past this.
    var devicesPerAccount = 10

    static func addFavourite(
        _ change: FavouriteChanged, erased: ErasedAccounts, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let city = String(decoding: try EventCoding.encoder.encode(change.city), as: UTF8.self)
        // A favourite added just before its account was deleted may arrive after the deletion: it is not brought back.
        try await connection.tracedQuery(
            """
            INSERT INTO favourites (user_id, city_id, city) SELECT \(change.userId), \(change.city.id), \(city)::jsonb
            WHERE NOT EXISTS (SELECT 1 FROM erased_accounts WHERE id_hash = ANY(\(erased.storedForms(of: change.userId))::text[]))
            ON CONFLICT (user_id, city_id) DO UPDATE SET city = EXCLUDED.city
            """,
            logger: logger)
    }

    static func removeFavourite(_ change: FavouriteChanged, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery(
            "DELETE FROM favourites WHERE user_id = \(change.userId) AND city_id = \(change.city.id)", logger: logger)
    }

    func settings(userId: String) async throws -> NotificationSettings {
        let rows = try await client.tracedQuery(
            "SELECT city_id, forecasts, warnings FROM notification_settings WHERE user_id = \(userId)", logger: logger
        ).decode((Int, Bool, Bool).self).collectAll()
        let stored = Dictionary(uniqueKeysWithValues: rows.map { ($0.0, NotificationSetting(forecasts: $0.1, warnings: $0.2)) })
        let favourites = try await client.tracedQuery(
            "SELECT city::text FROM favourites WHERE user_id = \(userId) ORDER BY city->>'name', city_id", logger: logger
        ).decode(String.self).collectAll().map { try EventCoding.decoder.decode(ForecastCity.self, from: Data($0.utf8)) }
        return NotificationSettings(
            currentLocation: stored[NotificationSettingChange.currentLocation] ?? NotificationSetting(),
            favourites: favourites.map { ($0, stored[$0.id] ?? NotificationSetting()) })
    }

    /// Applies every change or none, in one transaction; settings for a city that is not (yet) a favourite are kept
    /// and apply once it is. A city named twice takes its last change.
    func setSettings(userId: String, _ changes: [NotificationSettingChange]) async throws {
        try await client.inTransaction(logger: logger) { connection in
            for change in changes {
                try await connection.tracedQuery(
                    """
                    INSERT INTO notification_settings (user_id, city_id, forecasts, warnings)
                    VALUES (\(userId), \(change.cityId), \(change.forecasts ?? true), \(change.warnings ?? true))
                    ON CONFLICT (user_id, city_id) DO UPDATE SET
                        forecasts = COALESCE(\(change.forecasts), notification_settings.forecasts),
                        warnings = COALESCE(\(change.warnings), notification_settings.warnings)
                    """,
                    logger: logger)
            }
        }
    }

    /// Registers a device token for the user, or updates its current location. A token another account holds
    /// moves to this user only with proof of being the same app install (the `installId` it was registered
    /// with): otherwise false and nothing changes, so nobody takes over another person's pushes by naming
    /// their token.
    func register(_ device: RegisteredDevice, installId: String?, userId: String) async throws -> Bool {
        try await client.inTransaction(logger: logger) { connection in
            // The account's registrations take turns, so two at once cannot both miss the other's device when the
            // oldest are dropped past `devicesPerAccount`.
            try await connection.tracedQuery("SELECT pg_advisory_xact_lock(hashtextextended('devices:' || \(userId), 0))", logger: logger)
            // The device's day follows its city's zone, which the city's forecast brings: under the city's lock (the
            // forecast's trigger takes it too, migration 0009), a forecast committing meanwhile is seen either here
            // or by its trigger, never by neither.
            if let city = device.currentCityId, device.timeZone == nil {
                try await connection.tracedQuery("SELECT pg_advisory_xact_lock(7153, \(Int32(clamping: city)))", logger: logger)
            }
            return try await register(device, installId: installId, userId: userId, on: connection)
        }
    }

    private func register(_ device: RegisteredDevice, installId: String?, userId: String, on connection: PostgresConnection) async throws -> Bool {
        let registered =
            try await connection.tracedQuery(
                """
                INSERT INTO devices (token, user_id, current_city_id, time_zone, install_id, app, language) VALUES (\(device.token), \(userId),
                    \(device.currentCityId), \(device.timeZone), \(installId), \(device.app.rawValue), \(device.language))
                ON CONFLICT (token) DO UPDATE SET user_id = EXCLUDED.user_id, current_city_id = EXCLUDED.current_city_id,
                    time_zone = EXCLUDED.time_zone, app = EXCLUDED.app, language = EXCLUDED.language, install_id = COALESCE(EXCLUDED.install_id, devices.install_id), updated_at = now()
                WHERE devices.user_id = EXCLUDED.user_id OR devices.install_id = EXCLUDED.install_id
                RETURNING token
                """,
                logger: logger
            ).collectAll().count == 1
        if registered {
            try await connection.tracedQuery(
                """
                DELETE FROM devices WHERE user_id = \(userId) AND token <> \(device.token) AND token IN (
                    SELECT token FROM devices WHERE user_id = \(userId) AND token <> \(device.token)
                    ORDER BY updated_at DESC, token OFFSET \(devicesPerAccount - 1))
                """, logger: logger)
        }
        return registered
    }

    /// Who holds the token now; nil for a token nobody registered.
    func holder(ofToken token: String) async throws -> DeviceHolder? {
        try await client.tracedQuery("SELECT user_id, install_id FROM devices WHERE token = \(token)", logger: logger)
            .decode((String, String?).self).collectAll().first.map { DeviceHolder(userId: $0.0, installId: $0.1) }
    }

    /// Removes the user's device; false when they have no such device.
    func unregister(token: String, userId: String) async throws -> Bool {
        try await client.tracedQuery("DELETE FROM devices WHERE token = \(token) AND user_id = \(userId) RETURNING token", logger: logger)
            .collectAll().count == 1
    }

    func devices(userId: String) async throws -> [RegisteredDevice] {
        try await client.tracedQuery(
            "SELECT token, current_city_id, time_zone, app, language FROM devices WHERE user_id = \(userId) ORDER BY registered_at, token",
            logger: logger
        ).decode((String, Int?, String?, String, String?).self).collectAll().map {
            RegisteredDevice(token: $0.0, currentCityId: $0.1, timeZone: $0.2, app: PushApp(rawValue: $0.3) ?? .weather, language: $0.4)
        }
    }
}
