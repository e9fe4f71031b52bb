import Foundation
import Logging
import PlatformCore
import PlatformPostgres
import PostgresNIO

/// Failed attempts by kind and subject (an account id, an email or a client address), for the seeds' try
/// limits and the brute-force lockout. Taking a try also drops that subject's tries older than a day (no
/// window is longer), so a subject that keeps failing never piles up rows.
struct AttemptStore: AttemptRecording {
    let client: PostgresClient
    let logger: Logger

    func failures(_ kind: AttemptKind, subject: String, within window: TimeInterval) async throws -> [Date] {
        try await client.withConnection { try await failures(kind, subject: subject, within: window, on: $0) }
    }

    private func failures(
        _ kind: AttemptKind, subject: String, within window: TimeInterval, on connection: PostgresConnection
    ) async throws -> [Date] {
        let seconds = window.rounded(.up).roundedClampedInt
        let rows = try await connection.tracedQuery(
            """
            SELECT at FROM failed_attempts
            WHERE kind = \(kind.rawValue) AND subject = \(subject) AND at > now() - make_interval(secs => \(seconds))
            ORDER BY at
            """, logger: logger)
        var dates: [Date] = []
        for try await at in rows.decode(Date.self) { dates.append(at) }
        return dates
    }

    /// Takes one try of `kind` for `subject` before the costly or guessable check runs: under a transaction
    /// lock on the subject, counts its failures in the window and, when one is left, records this try as a
    /// failure at once. Concurrent requests for one subject therefore take tries one after another and no more
    /// than the limit are ever evaluated; a try that turns out well is `release`d.
    func reserve(_ kind: AttemptKind, subject: String, limit: AttemptLimit) async throws -> AttemptReservation {
        try await client.inTransaction(logger: logger) { connection -> AttemptReservation in
            try await connection.tracedQuery(
                "SELECT pg_advisory_xact_lock(hashtextextended(\(kind.rawValue + ":" + subject), 7152))", logger: logger)
            let failures = try await failures(kind, subject: subject, within: limit.window, on: connection)
            let now = Date()
            if let until = limit.lockedUntil(failures: failures, now: now) { return .locked(until: until) }
            let inserted = try await connection.tracedQuery(
                """
                WITH expired AS (
                    DELETE FROM failed_attempts
                    WHERE kind = \(kind.rawValue) AND subject = \(subject) AND at < now() - interval '1 day'
                )
                INSERT INTO failed_attempts (kind, subject) VALUES (\(kind.rawValue), \(subject)) RETURNING id
                """, logger: logger)
            var id: Int64 = 0
            for try await value in inserted.decode(Int64.self) { id = value }
            let left = max(0, limit.triesLeft(failures: failures, now: now) - 1)
            return .taken(AttemptTry(kind: kind, subject: subject, id: id, triesLeftIfFailed: left))
        }
    }

    /// Gives a taken try back: it did not fail (or was never evaluated).
    func release(_ attempt: AttemptTry) async throws {
        try await client.tracedQuery("DELETE FROM failed_attempts WHERE id = \(attempt.id)", logger: logger)
    }

    /// Forgets the failures of every subject that starts with `prefix` (an account's tries from all addresses).
    func clear(_ kind: AttemptKind, subjectsStartingWith prefix: String) async throws {
        try await client.tracedQuery(
            "DELETE FROM failed_attempts WHERE kind = \(kind.rawValue) AND starts_with(subject, \(prefix))", logger: logger)
    }

    /// Forgets the failures of a subject after it succeeded.
    func clear(_ kind: AttemptKind, subject: String) async throws {
        try await client.tracedQuery(
            "DELETE FROM failed_attempts WHERE kind = \(kind.rawValue) AND subject = \(subject)", logger: logger)
    }
}
