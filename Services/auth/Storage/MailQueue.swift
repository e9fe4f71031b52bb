import Logging
import PostgresNIO

/// Mail to send, queued in the caller's transaction (like the event outbox) and delivered by `MailSender`. The
/// body is stored sealed (`MailSealer`): it holds a reset link or a code until it is sent.
struct MailQueue: Sendable {
    let sealer: MailSealer

    func enqueue(
        to recipient: String, subject: String, body: String, on connection: PostgresConnection, logger: Logger
    )
        async throws
    {
        let sealed = try sealer.seal(body)
        try await connection.tracedQuery(
            "INSERT INTO outgoing_mail (recipient, subject, body) VALUES (\(recipient), \(subject), \(sealed))", logger: logger)
    }
}
