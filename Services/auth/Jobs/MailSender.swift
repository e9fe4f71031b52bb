import Foundation
import Logging
import PlatformCore
import PlatformPostgres
import PostgresNIO
import ServiceLifecycle

/// Delivers queued mail over SMTP, retrying with backoff (up to about a day) when the server is unreachable.
/// Rows are claimed with SKIP LOCKED, so several instances never send the same mail at once.
struct MailSender: Service {
    let client: PostgresClient
    let smtp: SMTPClient
    let sealer: MailSealer
    let startGate: StartGate
    let logger: Logger
    var pollInterval: Duration = .milliseconds(200)

    func run() async throws {
        guard await startGate.waitUnlessShuttingDown() else { return }
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                if try await sendNext() { continue }
            } catch {
                logger.warning("mail queue error", metadata: ["error": "\(String(reflecting: error))"])
            }
            try? await Task.sleep(for: pollInterval)
        }
    }

    /// Tries per mail before it is given up (and its body dropped: a link nobody received need not be kept).
    static let maxAttempts = 20

    /// Sends the next due mail; false when none was due.
    func sendNext() async throws -> Bool {
        try await client.inTransaction(logger: logger) { connection -> Bool in
            let rows = try await connection.tracedQuery(
                """
                SELECT id, recipient, subject, body, attempts FROM outgoing_mail
                WHERE sent_at IS NULL AND next_attempt_at <= now() AND attempts < \(Self.maxAttempts)
                ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
                """, logger: logger)
            var due: (Int64, String, String, String, Int)?
            for try await row in rows.decode((Int64, String, String, String, Int).self) { due = row }
            guard let (id, recipient, subject, body, attempts) = due else { return false }
            let plain: String
            do {
                plain = try sealer.open(body)
            } catch {
                // Sealed with a key this instance does not have: no retry can send it.
                try await connection.tracedQuery(
                    "UPDATE outgoing_mail SET attempts = \(Self.maxAttempts), body = '', last_error = \(String(describing: error)) WHERE id = \(id)",
                    logger: logger)
                logger.error("queued mail cannot be opened; given up", metadata: ["mailId": "\(id)", "error": "\(error)"])
                return true
            }
            do {
                try await smtp.send(to: recipient, subject: subject, body: plain)
                // The body holds a reset link or code: once delivered, the queue keeps only that it was sent.
                try await connection.tracedQuery("UPDATE outgoing_mail SET sent_at = now(), body = '' WHERE id = \(id)", logger: logger)
                logger.info("mail sent", metadata: ["mailId": "\(id)"])
            } catch {
                let delay = min(3_600, 5 << min(attempts, 10))  // 5 s, 10 s, ... capped at an hour
                try await connection.tracedQuery(
                    """
                    UPDATE outgoing_mail SET attempts = attempts + 1, last_error = \(String(describing: error)),
                        next_attempt_at = now() + make_interval(secs => \(delay)),
                        body = CASE WHEN attempts + 1 >= \(Self.maxAttempts) THEN '' ELSE body END
                    WHERE id = \(id)
                    """, logger: logger)
                logger.warning("mail not sent; will retry", metadata: ["mailId": "\(id)", "error": "\(error)"])
            }
            return true
        }
    }
}
