import Foundation
import Logging
import PlatformCore
import PostgresNIO
import ServiceLifecycle

/// Delivers queued mail over SMTP, retrying with backoff (up to about a day) when the server is unreachable.
/// Rows are claimed with SKIP LOCKED, so several instances never send the same mail at once. Sent and given-up
/// mail is purged once older than `retention`: at start, after each mail sent, and every `purgeInterval` when idle.
struct MailSender: Service {
    let client: PostgresClient
    let smtp: SMTPClient
    let sealer: MailSealer
    let startGate: StartGate
    let logger: Logger
    /// How long a sent mail's address and subject are kept (`SENT_MAIL_RETENTION_DAYS`).
    let retention: Duration
    var pollInterval: Duration = .milliseconds(200)
    var purgeInterval: Duration = .seconds(600)

    func run() async throws {
        guard await startGate.waitUnlessShuttingDown() else { return }
        let clock = ContinuousClock()
        var purgedAt: ContinuousClock.Instant?
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                if purgedAt.map({ $0.duration(to: clock.now) >= purgeInterval }) ?? true {
                    try await OutgoingMail(client: client, logger: logger).purgeExpired(retention: retention)
                    purgedAt = clock.now
                }
                if try await sendNext() {
                    // A sent row starts its retention; the purge (an index range, usually empty) runs before the next.
                    purgedAt = nil
                    continue
                }
            } catch {
                logger.warning("mail queue error", metadata: ["error": "\(String(reflecting: error))"])
            }
            try? await Task.sleep(for: pollInterval)
        }
    }

    /// Sends the next due mail; false when none was due.
    func sendNext() async throws -> Bool {
        try await OutgoingMail(client: client, logger: logger).deliverNext { due in
            let plain: String
            do {
                plain = try sealer.open(due.sealedBody)
            } catch {
                logger.error("queued mail cannot be opened; given up", metadata: ["mailId": "\(due.id)", "error": "\(error)"])
                return .givenUp(reason: String(describing: error))
            }
            do {
                try await smtp.send(to: due.recipient, subject: due.subject, body: plain)
                logger.info("mail sent", metadata: ["mailId": "\(due.id)"])
                return .sent
            } catch {
                logger.warning("mail not sent; will retry", metadata: ["mailId": "\(due.id)", "error": "\(error)"])
                return .failed(reason: String(describing: error), retryInSeconds: Self.retryDelay(afterAttempts: due.attempts))
            }
        }
    }

    /// 5 s, 10 s, 20 s ... capped at an hour: with `OutgoingMail.maxAttempts` tries, about a day in all.
    static func retryDelay(afterAttempts attempts: Int) -> Int {
        min(3_600, 5 << min(max(attempts, 0), 10))
    }
}
