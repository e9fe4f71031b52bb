import Foundation
import Logging
import PostgresNIO
import Shared

/// Failed attempts by kind and subject (an account id, an email or a client address), for the seeds' try
/// limits and the brute-force lockout. Recording a failure also drops that subject's failures older than a day
/// (no window is longer), so a subject that keeps failing never piles up rows.
struct AttemptStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    func failures(_ kind: AttemptKind, subject: String, within window: TimeInterval) async throws -> [Date] {
        let seconds = window.rounded(.up).roundedClampedInt
        let rows = try await client.query(
            """
            SELECT at FROM failed_attempts
            WHERE kind = \(kind.rawValue) AND subject = \(subject) AND at > now() - make_interval(secs => \(seconds))
            ORDER BY at
            """, logger: logger)
        var dates: [Date] = []
        for try await at in rows.decode(Date.self) { dates.append(at) }
        return dates
    }

    func recordFailure(_ kind: AttemptKind, subject: String) async throws {
        try await client.query(
            """
            WITH expired AS (
                DELETE FROM failed_attempts
                WHERE kind = \(kind.rawValue) AND subject = \(subject) AND at < now() - interval '1 day'
            )
            INSERT INTO failed_attempts (kind, subject) VALUES (\(kind.rawValue), \(subject))
            """, logger: logger)
    }

    /// Forgets the failures of a subject after it succeeded.
    func clear(_ kind: AttemptKind, subject: String) async throws {
        try await client.query(
            "DELETE FROM failed_attempts WHERE kind = \(kind.rawValue) AND subject = \(subject)", logger: logger)
    }
}
