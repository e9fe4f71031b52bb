import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// The sending side of the mail queue (`MailQueue` fills it): the next due mail claimed with SKIP LOCKED, so
/// several instances never send the same mail at once, and what became of it recorded in the same transaction.
/// A delivered mail's body is dropped (it held a reset link or a code); so is one given up. The rest of the row (an
/// address and a subject) is purged after the retention (`purgeExpired`), and at once when the account is deleted.
struct OutgoingMail: Sendable {
    let client: PostgresClient
    let logger: Logger

    /// Tries per mail before it is given up.
    static let maxAttempts = 20

    struct Due: Sendable {
        let id: Int64
        let recipient: String
        let subject: String
        let sealedBody: String
        /// Failed tries so far.
        let attempts: Int
    }

    enum Fate: Sendable {
        case sent
        /// It can never be sent (sealed with a key this instance does not have): given up at once.
        case givenUp(reason: String)
        /// Tried again after `retryInSeconds`, unless that was the last try.
        case failed(reason: String, retryInSeconds: Int)
    }

    /// Claims the next due mail and records what `deliver` made of it; false when none was due.
    func deliverNext(_ deliver: (Due) async -> Fate) async throws -> Bool {
        try await client.inTransaction(logger: logger) { connection -> Bool in
            let rows = try await connection.tracedQuery(
                """
                SELECT id, recipient, subject, body, attempts FROM outgoing_mail
                WHERE sent_at IS NULL AND next_attempt_at <= now() AND attempts < \(Self.maxAttempts)
                ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
                """, logger: logger)
            var due: Due?
            for try await (id, recipient, subject, body, attempts) in rows.decode((Int64, String, String, String, Int).self) {
                due = Due(id: id, recipient: recipient, subject: subject, sealedBody: body, attempts: attempts)
            }
            guard let due else { return false }
            switch await deliver(due) {
            case .sent:
                try await connection.tracedQuery("UPDATE outgoing_mail SET sent_at = now(), body = '' WHERE id = \(due.id)", logger: logger)
            case .givenUp(let reason):
                try await connection.tracedQuery(
                    "UPDATE outgoing_mail SET attempts = \(Self.maxAttempts), body = '', last_error = \(reason) WHERE id = \(due.id)",
                    logger: logger)
            case .failed(let reason, let delay):
                try await connection.tracedQuery(
                    """
                    UPDATE outgoing_mail SET attempts = attempts + 1, last_error = \(reason),
                        next_attempt_at = now() + make_interval(secs => \(delay)),
                        body = CASE WHEN attempts + 1 >= \(Self.maxAttempts) THEN '' ELSE body END
                    WHERE id = \(due.id)
                    """, logger: logger)
            }
            return true
        }
    }

    /// Deletes mail sent, or given up, more than `retention` ago; returns how many rows went.
    @discardableResult
    func purgeExpired(retention: Duration) async throws -> Int {
        let seconds = Double(retention.components.seconds)
        return try await client.tracedQuery(
            """
            DELETE FROM outgoing_mail
            WHERE sent_at < now() - make_interval(secs => \(seconds))
                OR (sent_at IS NULL AND attempts >= \(Self.maxAttempts) AND next_attempt_at < now() - make_interval(secs => \(seconds)))
            RETURNING id
            """, logger: logger
        ).collectAll().count
    }
}
