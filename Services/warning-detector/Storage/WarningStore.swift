import Foundation
import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// Warnings (A1, A2): applying a forecast's detections, and the active warnings clients see.
struct WarningStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// Topic of warning events (tests use their own).
    let topic: String

    static let columns = """
        id, city_id, kind, announcement_number, location, region, latitude, longitude, time_zone, severity, status,
        status_description, onset, ends
        """
    typealias Row = (UUID, Int, String, String, String, String, Double, Double, String, String, String, String, Date, Date)

    /// The row as the domain's warning. The kind and severity columns hold only what this service wrote from the
    /// rules' closed sets, so the fallbacks (the API's own) are never taken.
    static func decode(_ row: Row) -> Warning {
        Warning(
            id: row.0, cityId: row.1, kind: WarningRule.Kind(rawValue: row.2) ?? .heat, announcementNumber: row.3, location: row.4, region: row.5,
            latitude: row.6,
            longitude: row.7, timeZone: row.8, severity: Severity(capName: row.9) ?? .moderate, status: row.10, statusDescription: row.11,
            onset: row.12, ends: row.13)
    }

    /// Makes each city's warnings match what its forecast shows, in the consumer's transaction and with a fixed
    /// number of statements however many cities the batch has (one city appears once): a new kind is issued,
    /// a live warning whose fields changed is updated (same id and announcement number), and a live warning the
    /// forecast no longer shows is cancelled. Each change goes to the outbox (key: city id), in that order per city.
    func apply(_ batch: [CityDetections], on connection: PostgresConnection) async throws -> WarningChanges {
        guard !batch.isEmpty else { return WarningChanges() }
        let live = Dictionary(grouping: try await liveWarnings(of: batch, on: connection), by: \.cityId)
        let numbers = try await announcementNumbers(count: WarningReconciliation.issuedCount(batch, live: live), on: connection)
        var changes = WarningChanges()
        var events: [Outbox.Row] = []
        for (item, itemChanges) in zip(batch, WarningReconciliation.changes(batch, live: live, numbers: numbers)) {
            for change in itemChanges {
                switch change {
                case .issued(let warning):
                    changes.issued.append(warning)
                    events.append(try event(EventTypes.warningIssued, warning.notice, of: item))
                case .updated(let warning):
                    changes.updated.append(warning)
                    events.append(try event(EventTypes.warningUpdated, warning.notice, of: item))
                case .cancelled(let warning):
                    changes.cancelled.append(warning)
                    events.append(
                        try event(
                            EventTypes.warningCancelled, WarningCancelled(warningId: warning.id, cityId: warning.cityId), of: item))
                }
            }
        }
        try await insert(changes.issued, on: connection)
        try await update(changes.updated, on: connection)
        if !changes.cancelled.isEmpty {
            try await connection.tracedQuery(
                """
                UPDATE warnings SET state = 'cancelled', version = version + 1, updated_at = now()
                WHERE id = ANY(\(changes.cancelled.map(\.id))::uuid[])
                """,
                logger: logger)
        }
        try await Outbox.enqueue(rows: events, toTopicNamed: topic, on: connection, logger: logger)
        return changes
    }

    /// The live warnings of the batch's cities, each as of its own forecast's time, locked for the update.
    private func liveWarnings(of batch: [CityDetections], on connection: PostgresConnection) async throws -> [Warning] {
        let cityIds = batch.map(\.forecast.city.id)
        let fetchedAt = batch.map(\.forecast.fetchedAt)
        let columns = Self.columns.split(separator: ",").map { "w." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .joined(separator: ", ")
        return try await connection.tracedQuery(
            """
            SELECT \(unescaped: columns) FROM warnings w
            JOIN unnest(\(cityIds)::integer[], \(fetchedAt)::timestamptz[]) AS f(city_id, fetched_at) ON w.city_id = f.city_id
            WHERE w.state = 'active' AND w.ends > f.fetched_at
            ORDER BY w.city_id, w.issued_at, w.id
            FOR UPDATE OF w
            """,
            logger: logger
        ).decode(Row.self).collectAll().map(Self.decode)
    }

    private func announcementNumbers(count: Int, on connection: PostgresConnection) async throws -> [Int] {
        guard count > 0 else { return [] }
        return try await connection.tracedQuery(
            "SELECT nextval('announcement_numbers')::int8 FROM generate_series(1, \(count))", logger: logger
        ).decode(Int.self).collectAll()
    }

    private func insert(_ issued: [Warning], on connection: PostgresConnection) async throws {
        guard !issued.isEmpty else { return }
        try await connection.tracedQuery(
            """
            INSERT INTO warnings (id, city_id, kind, announcement_number, location, region, latitude, longitude, time_zone,
                severity, status, status_description, onset, ends)
            SELECT * FROM unnest(\(issued.map(\.id))::uuid[], \(issued.map(\.cityId))::integer[], \(issued.map(\.kind.rawValue))::text[],
                \(issued.map(\.announcementNumber))::text[], \(issued.map(\.location))::text[], \(issued.map(\.region))::text[],
                \(issued.map(\.latitude))::float8[], \(issued.map(\.longitude))::float8[], \(issued.map(\.timeZone))::text[],
                \(issued.map(\.severity.capName))::text[], \(issued.map(\.status))::text[], \(issued.map(\.statusDescription))::text[],
                \(issued.map(\.onset))::timestamptz[], \(issued.map(\.ends))::timestamptz[])
            """,
            logger: logger)
    }

    private func update(_ updated: [Warning], on connection: PostgresConnection) async throws {
        guard !updated.isEmpty else { return }
        try await connection.tracedQuery(
            """
            UPDATE warnings w SET severity = u.severity, status = u.status, status_description = u.status_description,
                onset = u.onset, ends = u.ends, version = w.version + 1, updated_at = now()
            FROM unnest(\(updated.map(\.id))::uuid[], \(updated.map(\.severity.capName))::text[], \(updated.map(\.status))::text[],
                \(updated.map(\.statusDescription))::text[], \(updated.map(\.onset))::timestamptz[], \(updated.map(\.ends))::timestamptz[])
                AS u(id, severity, status, status_description, onset, ends)
            WHERE w.id = u.id
            """,
            logger: logger)
    }

    private func event<Payload: Codable & Sendable>(_ type: EventType, _ payload: Payload, of item: CityDetections) throws -> Outbox.Row {
        try Outbox.Row(
            EventEnvelope(type: type, producer: ServiceIdentity.warningDetector.name, key: String(item.forecast.city.id), payload: payload),
            traceParent: item.traceParent)
    }

    /// The city's warnings that are live now: never one that was cancelled or whose end has passed.
    func active(cityId: Int, now: Date = Date()) async throws -> [Warning] {
        try await client.tracedQuery(
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
        try await client.tracedQuery(
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
