import Logging
import PostgresNIO

/// Mail to send, queued in the caller's transaction (like the event outbox) and delivered by `MailSender`.
enum MailQueue {
    static func enqueue(to recipient: String, subject: String, body: String, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        try await connection.tracedQuery(
            "INSERT INTO outgoing_mail (recipient, subject, body) VALUES (\(recipient), \(subject), \(body))", logger: logger)
    }
}
