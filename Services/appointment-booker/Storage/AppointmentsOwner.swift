import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// appointment-booker's part in an account's end (U9). Deleted: its future appointments, as client or as
/// partner, are cancelled with their events; past ones stay in the partner's history under an id that names
/// nobody; its readings, daily horoscope setting, entitlements and account state go; a partner's profile stays for its past appointments,
/// emptied of name, text, contact and photo, under a new id. Merged: appointments, readings and the daily horoscope setting follow to the
/// account the install merged into (its own reading of the same day and inputs is the one kept); entitlements
/// come to it from auth's own `entitlement.granted`.
struct AppointmentsOwner: AccountDataOwner {
    let bookingsTopic: String

    func erase(user: String, on connection: PostgresConnection, logger: Logger) async throws {
        let cancelled = try await BookingStore.cancelFuture(
            of: user, reason: "account deleted", topic: bookingsTopic, on: connection, logger: logger)
        if cancelled > 0 { logger.info("deleted account's appointments cancelled", metadata: ["bookings": "\(cancelled)"]) }
        try await connection.tracedQuery(
            "UPDATE bookings SET user_id = 'erased:' || gen_random_uuid(), idempotency_key = NULL, booker_name = NULL, booker_contact = NULL WHERE user_id = \(user)",
            logger: logger)
        for table in ["readings", "daily_horoscopes", "account_entitlements", "accounts", "partner_applications"] {
            try await connection.tracedQuery("DELETE FROM \(unescaped: table) WHERE user_id = \(user)", logger: logger)
        }
        try await anonymisePartner(user, on: connection, logger: logger)
    }

    /// The partner row keyed by the account's id becomes an empty one under a new id, which its ads and past
    /// appointments then point at.
    private func anonymisePartner(_ user: String, on connection: PostgresConnection, logger: Logger) async throws {
        let renamed = try await connection.tracedQuery(
            """
            INSERT INTO partners
            SELECT (jsonb_populate_record(p, jsonb_build_object(
                'id', gen_random_uuid(), 'name', 'Deleted partner', 'description', '', 'contact', '', 'photo_url', NULL,
                'approved', false))).*
            FROM partners p WHERE p.id::text = \(user)
            RETURNING id
            """, logger: logger
        ).decode(UUID.self).collectAll().first
        guard let renamed else { return }
        try await connection.tracedQuery("UPDATE bookings SET partner_id = \(renamed) WHERE partner_id::text = \(user)", logger: logger)
        try await connection.tracedQuery("UPDATE ads SET partner_id = \(renamed) WHERE partner_id::text = \(user)", logger: logger)
        try await connection.tracedQuery("DELETE FROM partners WHERE id::text = \(user)", logger: logger)
    }

    func merge(from: String, into: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery(
            """
            UPDATE bookings f SET user_id = \(into), idempotency_key = CASE WHEN EXISTS (
                SELECT 1 FROM bookings i WHERE i.user_id = \(into) AND i.idempotency_key = f.idempotency_key) THEN NULL ELSE f.idempotency_key END
            WHERE f.user_id = \(from)
            """, logger: logger)
        try await connection.tracedQuery(
            """
            DELETE FROM readings f WHERE f.user_id = \(from) AND EXISTS (
                SELECT 1 FROM readings i WHERE i.user_id = \(into) AND i.kind = f.kind AND i.inputs = f.inputs AND i.local_date = f.local_date)
            """, logger: logger)
        try await connection.tracedQuery("UPDATE readings SET user_id = \(into) WHERE user_id = \(from)", logger: logger)
        try await connection.tracedQuery(
            """
            INSERT INTO daily_horoscopes (user_id, enabled, sign, local_time, time_zone, last_sent_on)
            SELECT \(into), enabled, sign, local_time, time_zone, last_sent_on FROM daily_horoscopes WHERE user_id = \(from)
            ON CONFLICT (user_id) DO NOTHING
            """, logger: logger)
        for table in ["daily_horoscopes", "account_entitlements", "accounts"] {
            try await connection.tracedQuery("DELETE FROM \(unescaped: table) WHERE user_id = \(from)", logger: logger)
        }
    }
}
