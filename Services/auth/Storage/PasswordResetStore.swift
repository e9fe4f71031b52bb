import Foundation
import Logging
import PlatformCore
import PlatformPostgres
import PostgresNIO

/// Password-reset links (D22): a random token whose SHA-256 hash is stored, valid for a configured time and
/// usable once. Requesting a new link retires the older unused ones: an account has one live link. The mail with the
/// link is queued in the same transaction, so a committed request always gets its mail.
struct PasswordResetStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    let lifetime: TimeInterval
    let mail: MailQueue

    /// Creates a link for the account and queues the mail; returns the token (for the mail only).
    func request(for account: Account, email: EmailAddress, linkBase: String) async throws {
        let token = TokenIssuer.newRefreshToken()
        let link = "\(linkBase)?token=\(token)"
        let hours = (lifetime / 3600).rounded(.towardZero).roundedClampedInt
        let body = """
            Hello,

            someone asked to reset the password of your dashboard account. Open this link to choose a new one:

            \(link)

            The link works once and expires in \(hours) hour\(hours == 1 ? "" : "s"). If you did not ask for it, ignore this mail.
            """
        try await client.inTransaction(logger: logger) { connection in
            // One live link per account: asking again retires the links mailed before. Requests for one account
            // take turns, or two at once would each retire only the links they can see.
            try await connection.tracedQuery("SELECT id FROM accounts WHERE id = \(account.id) FOR UPDATE", logger: logger)
            try await connection.tracedQuery(
                "UPDATE password_resets SET used_at = now() WHERE account_id = \(account.id) AND used_at IS NULL", logger: logger)
            try await connection.tracedQuery(
                """
                INSERT INTO password_resets (token_hash, account_id, expires_at)
                VALUES (\(TokenIssuer.hash(token)), \(account.id), \(Date().addingTimeInterval(lifetime)))
                """, logger: logger)
            try await mail.enqueue(
                to: email.value, subject: "Reset your dashboard password", body: body, on: connection, logger: logger)
        }
    }

    /// An invitation (B1): a new dashboard account without a password gets a link to choose one, the same
    /// single-use link as a reset, valid as long, written with its mail in the caller's transaction.
    func invite(_ account: Account, email: EmailAddress, linkBase: String, on connection: PostgresConnection) async throws {
        let token = TokenIssuer.newRefreshToken()
        let hours = (lifetime / 3600).rounded(.towardZero).roundedClampedInt
        let body = """
            Hello,

            you are invited to the horoscope platform as \(account.role == .partner ? "a fortune teller" : "a \(account.role.rawValue)").
            Open this link to choose your password, then sign in with this email address:

            \(linkBase)?token=\(token)

            The link works once and expires in \(hours) hour\(hours == 1 ? "" : "s"). If it expired, ask for a new one with
            "forgot password".
            """
        try await connection.tracedQuery(
            """
            INSERT INTO password_resets (token_hash, account_id, expires_at)
            VALUES (\(TokenIssuer.hash(token)), \(account.id), \(Date().addingTimeInterval(lifetime)))
            """, logger: logger)
        try await mail.enqueue(to: email.value, subject: "Your invitation", body: body, on: connection, logger: logger)
    }

    /// True when the link exists, is unused and has not expired.
    func isUsable(token: String) async throws -> Bool {
        let rows = try await client.tracedQuery(
            """
            SELECT count(*) FROM password_resets
            WHERE token_hash = \(TokenIssuer.hash(token)) AND used_at IS NULL AND expires_at > now()
            """, logger: logger)
        for try await count in rows.decode(Int.self) { return count > 0 }
        return false
    }

    /// Uses a link: sets the new password hash and ends all sessions, once. False for an unknown, used or expired link.
    func complete(token: String, passwordHash: String) async throws -> Bool {
        try await client.inTransaction(logger: logger) { connection -> Bool in
            let rows = try await connection.tracedQuery(
                """
                UPDATE password_resets SET used_at = now()
                WHERE token_hash = \(TokenIssuer.hash(token)) AND used_at IS NULL AND expires_at > now()
                RETURNING account_id
                """, logger: logger)
            var accountId: UUID?
            for try await id in rows.decode(UUID.self) { accountId = id }
            guard let accountId else { return false }
            try await connection.tracedQuery("UPDATE accounts SET password_hash = \(passwordHash) WHERE id = \(accountId)", logger: logger)
            try await SessionStore.revokeAll(of: accountId, on: connection, logger: logger)
            return true
        }
    }
}
