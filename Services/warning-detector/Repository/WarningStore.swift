import Foundation
import Logging
import PostgresNIO
import Shared

/// Warnings (A1, A2): applying a forecast's detections, and the active warnings clients see.
struct WarningStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// Topic of warning events (tests use their own).
    let topic: String

    struct Changes: Sendable, Equatable {
        var issued: [Warning] = []
        var updated: [Warning] = []
        var cancelled: [Warning] = []
    }

    static let columns = """
        id, city_id, kind, announcement_number, location, region, latitude, longitude, time_zone, severity, status,
        status_description, onset, ends
        """
    typealias Row = (UUID, Int, String, String, String, String, Double, Double, String, String, String, String, Date, Date)

    static func decode(_ row: Row) -> Warning {
        Warning(
            id: row.0, cityId: row.1, kind: row.2, announcementNumber: row.3, location: row.4, region: row.5, latitude: row.6,
            longitude: row.7, timeZone: row.8, severity: row.9, status: row.10, statusDescription: row.11, onset: row.12, ends: row.13)
    }

    /// Makes the city's warnings match what the forecast shows, in the consumer's transaction: a new kind is
    /// issued, a live warning whose fields changed is updated (same id and announcement number), and a live
    /// warning the forecast no longer shows is cancelled. Each change goes to the outbox (key: city id).
    func apply(_ detected: [DetectedWarning], forecast: ForecastUpdated, on connection: PostgresConnection) async throws -> Changes {
        let city = forecast.city
        let live = try await connection.query(
            """
            SELECT \(unescaped: Self.columns) FROM warnings
            WHERE city_id = \(city.id) AND state = 'active' AND ends > \(forecast.fetchedAt)
            FOR UPDATE
            """,
            logger: logger
        ).decode(Row.self).collectAll().map(Self.decode)
        var changes = Changes()
        for detection in detected {
            if var warning = live.first(where: { $0.kind == detection.kind.rawValue }) {
                let before = warning
                warning.severity = detection.severity.capName
                warning.status = detection.status
                warning.statusDescription = detection.statusDescription
                warning.onset = detection.onset
                warning.ends = detection.ends
                guard warning != before else { continue }
                try await connection.query(
                    """
                    UPDATE warnings SET severity = \(warning.severity), status = \(warning.status),
                        status_description = \(warning.statusDescription), onset = \(warning.onset), ends = \(warning.ends),
                        version = version + 1, updated_at = now()
                    WHERE id = \(warning.id)
                    """,
                    logger: logger)
                try await publish(EventTypes.warningUpdated, warning.notice, cityId: city.id, on: connection)
                changes.updated.append(warning)
            } else {
                let warning = try await issue(detection, city: city, year: Self.year(of: forecast.fetchedAt), on: connection)
                try await publish(EventTypes.warningIssued, warning.notice, cityId: city.id, on: connection)
                changes.issued.append(warning)
            }
        }
        for warning in live where !detected.contains(where: { $0.kind.rawValue == warning.kind }) {
            try await connection.query(
                "UPDATE warnings SET state = 'cancelled', version = version + 1, updated_at = now() WHERE id = \(warning.id)",
                logger: logger)
            try await publish(
                EventTypes.warningCancelled, WarningCancelled(warningId: warning.id, cityId: city.id), cityId: city.id, on: connection)
            changes.cancelled.append(warning)
        }
        return changes
    }

    private func issue(_ detection: DetectedWarning, city: ForecastCity, year: Int, on connection: PostgresConnection) async throws -> Warning {
        let number = try await connection.query("SELECT nextval('announcement_numbers')::int8", logger: logger)
            .decode(Int.self).collectAll().first ?? 0
        let warning = Warning(
            id: UUID(), cityId: city.id, kind: detection.kind.rawValue,
            announcementNumber: "\(year)-\(String(format: "%06d", number))", location: city.name,
            region: [city.region, city.country].filter { !$0.isEmpty }.joined(separator: ", "), latitude: city.latitude,
            longitude: city.longitude, timeZone: city.timeZone, severity: detection.severity.capName, status: detection.status,
            statusDescription: detection.statusDescription, onset: detection.onset, ends: detection.ends)
        try await connection.query(
            """
            INSERT INTO warnings (id, city_id, kind, announcement_number, location, region, latitude, longitude, time_zone,
                severity, status, status_description, onset, ends)
            VALUES (\(warning.id), \(warning.cityId), \(warning.kind), \(warning.announcementNumber), \(warning.location),
                \(warning.region), \(warning.latitude), \(warning.longitude), \(warning.timeZone), \(warning.severity),
                \(warning.status), \(warning.statusDescription), \(warning.onset), \(warning.ends))
            """,
            logger: logger)
        return warning
    }

    private func publish<Payload: Codable & Sendable>(
        _ type: EventType, _ payload: Payload, cityId: Int, on connection: PostgresConnection
    ) async throws {
        let envelope = EventEnvelope(type: type, producer: ServiceIdentity.warningDetector.name, key: String(cityId), payload: payload)
        try await Outbox.enqueue(envelope, toTopicNamed: topic, on: connection, logger: logger)
    }

    private static func year(of date: Date) -> Int {
        Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date).year ?? 1970
    }

    /// The city's warnings that are live now: never one that was cancelled or whose end has passed.
    func active(cityId: Int, now: Date = Date()) async throws -> [Warning] {
        try await client.query(
            """
            SELECT \(unescaped: Self.columns) FROM warnings
            WHERE city_id = \(cityId) AND state = 'active' AND ends > \(now)
            ORDER BY onset, kind
            """,
            logger: logger
        ).decode(Row.self).collectAll().map(Self.decode)
    }

    /// Live warnings of cities inside the box (the map), at most `limit`.
    func active(in box: (south: Double, west: Double, north: Double, east: Double), limit: Int, now: Date = Date()) async throws -> [Warning] {
        try await client.query(
            """
            SELECT \(unescaped: Self.columns) FROM warnings
            WHERE state = 'active' AND ends > \(now)
              AND latitude BETWEEN \(box.south) AND \(box.north) AND longitude BETWEEN \(box.west) AND \(box.east)
            ORDER BY city_id, onset, kind LIMIT \(limit)
            """,
            logger: logger
        ).decode(Row.self).collectAll().map(Self.decode)
    }
}
