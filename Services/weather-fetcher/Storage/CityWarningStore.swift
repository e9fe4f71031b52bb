import Foundation
import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// The warnings weather-fetcher has learnt from the warnings topic, for the map flag (W9) and the warning
/// share text (W10). Expired warnings stay in the table but never count: every read filters on `ends`.
struct CityWarningStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    /// Applies an issued or updated warning. Events of one city arrive in order, but a replay may bring an
    /// older version after a newer one; the newest `occurredAt` wins.
    static func upsert(_ notice: WarningNotice, occurredAt: Date, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery(
            """
            INSERT INTO city_warnings (warning_id, city_id, announcement_number, kind, severity, status, status_description,
                onset, ends, event_occurred_at)
            VALUES (\(notice.warningId), \(notice.cityId), \(notice.announcementNumber), \(notice.kind.rawValue), \(notice.severity.rawValue),
                \(notice.status), \(notice.statusDescription), \(notice.onset), \(notice.ends), \(occurredAt))
            ON CONFLICT (warning_id) DO UPDATE SET announcement_number = EXCLUDED.announcement_number,
                kind = EXCLUDED.kind, severity = EXCLUDED.severity, status = EXCLUDED.status,
                status_description = EXCLUDED.status_description, onset = EXCLUDED.onset, ends = EXCLUDED.ends,
                event_occurred_at = EXCLUDED.event_occurred_at
            WHERE city_warnings.event_occurred_at <= EXCLUDED.event_occurred_at
            """,
            logger: logger)
    }

    static func cancel(_ cancelled: WarningCancelled, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery("DELETE FROM city_warnings WHERE warning_id = \(cancelled.warningId)", logger: logger)
    }

    /// The city's warnings that have not ended, the one ending last first.
    func active(cityId: Int) async throws -> [ActiveCityWarning] {
        let rows = try await client.tracedQuery(
            """
            SELECT warning_id, announcement_number, severity, status, status_description, onset, ends
            FROM city_warnings WHERE city_id = \(cityId) AND ends > now() ORDER BY ends DESC, warning_id
            """,
            logger: logger)
        return try await rows.decode((UUID, String, String, String, String, Date, Date).self).collectAll().map {
            ActiveCityWarning(
                warningId: $0.0, announcementNumber: $0.1, severity: $0.2, status: $0.3, statusDescription: $0.4, onset: $0.5,
                ends: $0.6)
        }
    }
}
