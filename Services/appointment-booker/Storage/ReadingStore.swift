import Foundation
import Logging
import PlatformCore
import PlatformHTTP
import PlatformPostgres
import PostgresNIO

/// Personal readings (B4): kept as made, listed newest first, shared by a short id without a token. The
/// same inputs on the same day are one row: a second shake of the fortune stick returns the first.
struct ReadingStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// `READINGS_PER_ACCOUNT_DAY`: different readings one user keeps a local day.
    let dailyLimit: Int

    typealias Stored = StoredReading
    typealias TooManyReadings = AppointmentBooker.TooManyReadings

    /// Keeps `reading` unless this user already has one of the same kind, inputs and day: that one is returned.
    /// A user keeps at most `dailyLimit` different readings in any 24 hours (each new name, question or day asked
    /// for is a row; counted by when they were kept, so asking for other dates does not get round it): past it,
    /// `TooManyReadings` and nothing kept.
    func keep(_ reading: Reading, user: String, inputs: String, day: CivilDate, contentVersion: String) async throws -> Stored {
        let json = String(decoding: try JSONEncoder().encode(reading), as: UTF8.self)
        let (limit, logger) = (dailyLimit, logger)
        return try await client.inTransaction(logger: logger) { connection in
            // One user's readings are kept one at a time, so the day's count holds under parallel requests.
            try await connection.tracedQuery("SELECT pg_advisory_xact_lock(hashtextextended(\("readings:" + user), 0))", logger: logger)
            let existing = try await connection.tracedQuery(
                """
                SELECT id, share_id, reading::text, created_at FROM readings
                WHERE user_id = \(user) AND kind = \(reading.kind.rawValue) AND inputs = \(inputs) AND local_date = \(day.description)::date
                """, logger: logger)
            if let stored = try await Self.decode(existing).first { return stored }
            let (kept, oldestAgesOutIn) =
                try await connection.tracedQuery(
                    """
                    SELECT count(*)::bigint, coalesce(extract(epoch FROM min(created_at) + interval '1 day' - now()), 0)::float8
                    FROM readings WHERE user_id = \(user) AND created_at > now() - interval '1 day'
                    """, logger: logger
                ).decode((Int, Double).self).collectAll().first ?? (0, 0)
            guard kept < limit else { throw TooManyReadings(limit: limit, retryAfterSeconds: oldestAgesOutIn) }
            let inserted = try await connection.tracedQuery(
                """
                INSERT INTO readings (id, share_id, user_id, kind, inputs, local_date, reading, content_version)
                VALUES (\(UUID()), \(ShareId.make()), \(user), \(reading.kind.rawValue), \(inputs), \(day.description)::date,
                    \(json)::jsonb, \(contentVersion))
                RETURNING id, share_id, reading::text, created_at
                """, logger: logger)
            guard let stored = try await Self.decode(inserted).first else { throw StoreError(description: "the reading was not kept") }
            return stored
        }
    }

    func shared(_ shareId: String) async throws -> Stored? {
        try await Self.decode(
            client.tracedQuery("SELECT id, share_id, reading::text, created_at FROM readings WHERE share_id = \(shareId)", logger: logger)
        ).first
    }

    /// Newest first; one more than `limit` tells there are more.
    func history(of user: String, limit: Int, offset: Int) async throws -> [Stored] {
        try await Self.decode(
            client.tracedQuery(
                """
                SELECT id, share_id, reading::text, created_at FROM readings WHERE user_id = \(user)
                ORDER BY created_at DESC, id LIMIT \(limit) OFFSET \(offset)
                """, logger: logger))
    }

    static func decode(_ rows: PostgresRowSequence) async throws -> [Stored] {
        var stored: [Stored] = []
        for try await (id, shareId, json, created) in rows.decode((UUID, String, String, Date).self) {
            stored.append(
                Stored(id: id, shareId: shareId, reading: try JSONDecoder().decode(Reading.self, from: Data(json.utf8)), createdAt: created))
        }
        return stored
    }

    struct StoreError: Error, CustomStringConvertible {
        let description: String
    }
}
