import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// The push queue, which is also the delivery log (A5). A delivery is written in the transaction that
/// decided it (the forecast event's, or the daily run's), once per device and dedupe key, so an event
/// consumed twice or two instances deciding the same thing still make one delivery.
struct PushQueue: Sendable {
    let client: PostgresClient
    let logger: Logger

    /// A new warning to every device whose user wants warnings for that city: as their current location
    /// (settings row 0) or as a favourite (the city's own row); each device once. A delivery keeps the trace
    /// of the forecast that issued its warning (`traceParents` by city), and its send continues it.
    static func enqueue(
        warnings: [Warning], traceParents: [Int: String] = [:], on connection: PostgresConnection, logger: Logger
    ) async throws -> Int {
        guard !warnings.isEmpty else { return 0 }
        // Who gets which warning, with the device's zone and language: each message is written for its reader.
        let audience = try await connection.tracedQuery(
            """
            SELECT w.id, d.token, d.user_id, coalesce(d.time_zone, d.effective_zone), d.language
            FROM unnest(\(warnings.map(\.id))::uuid[], \(warnings.map(\.cityId))::integer[]) AS w(id, city_id)
            JOIN devices d ON d.app = 'weather' AND (
                (d.current_city_id = w.city_id AND COALESCE(
                    (SELECT s.warnings FROM notification_settings s WHERE s.user_id = d.user_id AND s.city_id = 0), true))
                OR (EXISTS (SELECT 1 FROM favourites f WHERE f.user_id = d.user_id AND f.city_id = w.city_id) AND COALESCE(
                    (SELECT s.warnings FROM notification_settings s WHERE s.user_id = d.user_id AND s.city_id = w.city_id), true)))
            """, logger: logger
        ).decode((UUID, String, String, String?, String?).self).collectAll()
        guard !audience.isEmpty else { return 0 }
        let byId = Dictionary(warnings.map { ($0.id, $0) }) { first, _ in first }
        var tokens: [String] = [], users: [String] = [], keys: [String] = [], payloads: [String] = [], traces: [String?] = []
        // One text per warning, zone and language: a city's devices mostly share them, and each costs two formatters.
        var written: [String: String] = [:]
        for (id, token, user, zone, language) in audience {
            guard let warning = byId[id] else { continue }
            let variant = "\(id)|\(zone ?? "")|\(ReaderLanguage.isThai(language))"
            let payload = written[variant] ?? PushMessage.warning(warning, timeZone: zone, language: language)
            written[variant] = payload
            tokens.append(token)
            users.append(user)
            keys.append("warning:" + id.uuidString.uppercased())
            payloads.append(payload)
            traces.append(traceParents[warning.cityId])
        }
        let rows = try await connection.tracedQuery(
            """
            INSERT INTO push_deliveries (id, device_token, user_id, kind, dedupe_key, payload, trace_parent)
            SELECT gen_random_uuid(), t, u, 'warning', k, p::jsonb, tp
            FROM unnest(\(tokens)::text[], \(users)::text[], \(keys)::text[], \(payloads)::text[], \(NullableTextArray(traces))::text[])
                AS d(t, u, k, p, tp)
            ON CONFLICT (device_token, dedupe_key) DO NOTHING
            RETURNING id
            """,
            logger: logger)
        return try await rows.collectAll().count
    }

    /// An appointment reminder (B2) to every horoscope-app device of its user (never the weather app's: APNs
    /// would refuse the token under the other topic), once per device and booking start (a moved booking is
    /// reminded again), its text in the device's time zone and language.
    static func enqueue(reminder: AppointmentReminderDue, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        let dedupeKey =
            "appointment:\(reminder.bookingId.uuidString.lowercased()):\(reminder.startsAt.timeIntervalSince1970.rounded(.down).roundedClampedInt)"
        return try await enqueue(
            toHoroscopeDevicesOf: reminder.userId, kind: .appointmentReminder, dedupeKey: dedupeKey, on: connection, logger: logger
        ) { zone, language in PushMessage.appointmentReminder(reminder, timeZone: zone, language: language) }
    }

    /// The day's horoscope (B5) for each of the user's horoscope-app devices, once per device and local day.
    static func enqueue(dailyHoroscope due: HoroscopeDailyDue, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        try await enqueue(
            toHoroscopeDevicesOf: due.userId, kind: .dailyHoroscope, dedupeKey: "horoscope:\(due.localDate)", on: connection, logger: logger
        ) { _, language in PushMessage.dailyHoroscope(due, language: language) }
    }

    /// One message per horoscope-app device of `user`, written for each device's zone and language, once per device
    /// and `dedupeKey`. User ids are compared without case: tokens from before install accounts (U8) spelt them in upper case.
    private static func enqueue(
        toHoroscopeDevicesOf user: String, kind: DeliveryKind, dedupeKey: String, on connection: PostgresConnection, logger: Logger,
        message: (_ zone: String?, _ language: String?) -> String
    ) async throws -> Int {
        let devices = try await connection.tracedQuery(
            """
            SELECT d.token, d.user_id, coalesce(d.time_zone, d.effective_zone), d.language FROM devices d
            WHERE d.app = 'horoscope' AND lower(d.user_id) = lower(\(user)) ORDER BY d.token
            """, logger: logger
        ).decode((String, String, String?, String?).self).collectAll()
        guard !devices.isEmpty else { return 0 }
        let payloads = devices.map { message($0.2, $0.3) }
        return try await connection.tracedQuery(
            """
            INSERT INTO push_deliveries (id, device_token, user_id, kind, dedupe_key, payload, trace_parent, app)
            SELECT gen_random_uuid(), t, u, \(kind.rawValue), \(dedupeKey), p::jsonb, \(PlatformTracing.currentTraceParent()), 'horoscope'
            FROM unnest(\(devices.map(\.0))::text[], \(devices.map(\.1))::text[], \(payloads)::text[]) AS d(t, u, p)
            ON CONFLICT (device_token, dedupe_key) DO NOTHING
            RETURNING id
            """,
            logger: logger
        ).collectAll().count
    }

    /// One daily message; false when the device already has it.
    func enqueueDaily(deviceToken: String, userId: String, dedupeKey: String, payload: String) async throws -> Bool {
        try await client.tracedQuery(
            """
            INSERT INTO push_deliveries (id, device_token, user_id, kind, dedupe_key, payload)
            VALUES (gen_random_uuid(), \(deviceToken), \(userId), 'daily-forecast', \(dedupeKey), \(payload)::jsonb)
            ON CONFLICT (device_token, dedupe_key) DO NOTHING
            RETURNING id
            """,
            logger: logger
        ).collectAll().count == 1
    }

    struct Due: Sendable {
        var id: UUID
        var deviceToken: String
        var dedupeKey: String
        var payload: String
        var attempts: Int
        var createdAt: Date
        /// The trace that decided the delivery (a forecast's, a reminder's), which its send continues.
        var traceParent: String?
        /// Whose topic it goes under.
        var app: PushApp
    }

    /// Claims up to `limit` due deliveries for `lease`: another instance skips them, and if this one dies
    /// mid-send they are due again when the lease ends.
    func claimDue(limit: Int, lease: Duration) async throws -> [Due] {
        try await client.tracedQuery(
            """
            UPDATE push_deliveries SET attempts = attempts + 1,
                next_attempt_at = now() + make_interval(secs => \(lease.seconds))
            WHERE id IN (
                SELECT id FROM push_deliveries WHERE status = 'pending' AND next_attempt_at <= now()
                ORDER BY next_attempt_at LIMIT \(limit) FOR UPDATE SKIP LOCKED)
            RETURNING id, device_token, dedupe_key, payload::text, attempts, created_at, trace_parent, app
            """,
            logger: logger
        ).decode((UUID, String, String, String, Int, Date, String?, String).self).collectAll().map {
            Due(
                id: $0.0, deviceToken: $0.1, dedupeKey: $0.2, payload: $0.3, attempts: $0.4, createdAt: $0.5, traceParent: $0.6,
                app: PushApp(rawValue: $0.7) ?? .weather)
        }
    }

    func markSent(_ id: UUID, status: Int, apnsId: String?) async throws {
        try await client.tracedQuery(
            """
            UPDATE push_deliveries SET status = 'sent', last_status = \(status), last_error = NULL, apns_id = \(apnsId),
                finished_at = now()
            WHERE id = \(id)
            """,
            logger: logger)
    }

    func retryLater(_ id: UUID, status: Int?, error: String, after delay: Duration) async throws {
        try await client.tracedQuery(
            """
            UPDATE push_deliveries SET last_status = \(status), last_error = \(error.storableText()),
                next_attempt_at = now() + make_interval(secs => \(delay.seconds))
            WHERE id = \(id)
            """,
            logger: logger)
    }

    func markFailed(_ id: UUID, status: Int?, error: String) async throws {
        try await client.tracedQuery(
            """
            UPDATE push_deliveries SET status = 'failed', last_status = \(status), last_error = \(error.storableText()), finished_at = now()
            WHERE id = \(id)
            """,
            logger: logger)
    }

    /// The provider says the token is no longer valid: the device goes, and so does everything still queued for it.
    func removeToken(_ token: String, status: Int, reason: String) async throws {
        try await client.inTransaction(logger: logger) { connection in
            try await connection.tracedQuery("DELETE FROM devices WHERE token = \(token)", logger: logger)
            try await connection.tracedQuery(
                """
                UPDATE push_deliveries SET status = 'token-removed', last_status = \(status), last_error = \(reason.storableText()),
                    finished_at = now()
                WHERE device_token = \(token) AND status = 'pending'
                """,
                logger: logger)
        }
    }

    struct LogEntry: Sendable {
        var id: UUID
        var deviceToken: String
        var userId: String
        var kind: DeliveryKind
        var status: DeliveryStatus
        var attempts: Int
        var lastStatus: Int?
        var lastError: String?
        var createdAt: Date
        var finishedAt: Date?
    }

    /// The newest deliveries, optionally of one user (the delivery log). The kind and status columns hold only what
    /// this service wrote, so the fallbacks (the API's own) are never taken.
    func log(userId: String?, limit: Int) async throws -> [LogEntry] {
        try await client.tracedQuery(
            """
            SELECT id, device_token, user_id, kind, status, attempts, last_status, last_error, created_at, finished_at
            FROM push_deliveries WHERE \(userId)::text IS NULL OR user_id = \(userId)
            ORDER BY created_at DESC, id LIMIT \(limit)
            """,
            logger: logger
        ).decode((UUID, String, String, String, String, Int, Int?, String?, Date, Date?).self).collectAll().map {
            LogEntry(
                id: $0.0, deviceToken: $0.1, userId: $0.2, kind: DeliveryKind(rawValue: $0.3) ?? .warning,
                status: DeliveryStatus(rawValue: $0.4) ?? .pending,
                attempts: $0.5, lastStatus: $0.6, lastError: $0.7,
                createdAt: $0.8, finishedAt: $0.9)
        }
    }
}
