import Crypto
import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// Proof that a survey account reads mail at its address (N4): a code mailed at sign-up (and again on
/// request), valid for a day. Entering it marks the account verified and publishes `user.email-verified`, which
/// is what lets analytics hand out the account's coupon: sign-ups with made-up addresses earn nothing.
struct EmailVerificationStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// Where account events go: the catalogue's `auth.users`, or `AUTH_USERS_TOPIC`.
    let usersTopic: String
    let codes: MailedCodes
    let mail: MailQueue
    /// Keys the mailbox hash sent to analytics, so a list of known addresses cannot be matched against it. Analytics
    /// keeps the hash and the coupon's date after the account is deleted: one mailbox earns one coupon.
    let mailboxKey: SymmetricKey

    /// `mailboxKey`: `AUTH_MAILBOX_KEY`, or the one derived from the signing key (`AuthConfiguration`).
    init(client: PostgresClient, logger: Logger, usersTopic: String, signingKey: String, mailboxKey: String, mail: MailQueue) {
        self.client = client
        self.logger = logger
        self.usersTopic = usersTopic
        self.mail = mail
        codes = MailedCodes(table: .emailVerifications, lifetime: 86_400, signingKey: signingKey, logger: logger)
        self.mailboxKey = SymmetricKey(data: SHA256.hash(data: Data(mailboxKey.utf8)))
    }

    func isVerified(_ accountId: UUID) async throws -> Bool {
        let rows = try await client.tracedQuery(
            "SELECT email_verified_at IS NOT NULL FROM accounts WHERE id = \(accountId)", logger: logger)
        return try await rows.decode(Bool.self).collectAll().first ?? false
    }

    /// Mails a new code (retiring the earlier ones).
    func start(for account: Account, email: EmailAddress) async throws {
        try await client.inTransaction(logger: logger) { connection in
            try await connection.tracedQuery("SELECT id FROM accounts WHERE id = \(account.id) FOR UPDATE", logger: logger)
            let code = try await codes.issue(for: account.id, on: connection)
            try await mail.enqueue(
                to: email.value, subject: "Confirm your email address",
                body: "Your confirmation code is \(code). It is valid for 24 hours. If you did not sign up, ignore this mail.",
                on: connection, logger: logger)
        }
    }

    /// Uses the code: the account is verified and `user.email-verified` published, once.
    func verify(code: String, account: Account, email: EmailAddress) async throws -> EmailVerificationOutcome {
        try await client.inTransaction(logger: logger) { connection -> EmailVerificationOutcome in
            let verified =
                try await connection.tracedQuery(
                    "SELECT email_verified_at IS NOT NULL FROM accounts WHERE id = \(account.id) FOR UPDATE", logger: logger
                ).decode(Bool.self).collectAll().first ?? false
            guard !verified else { return .alreadyVerified }
            guard try await codes.consume(code: code, for: account.id, on: connection) else { return .invalidCode }
            try await connection.tracedQuery("UPDATE accounts SET email_verified_at = now() WHERE id = \(account.id)", logger: logger)
            let mailboxKey = HMAC<SHA256>.authenticationCode(for: Data(email.mailbox.utf8), using: self.mailboxKey)
                .map { String(format: "%02x", $0) }.joined()
            try await Outbox.enqueue(
                EventEnvelope(
                    type: EventTypes.userEmailVerified, producer: "auth", key: AccountKey.of(account.id),
                    payload: UserEmailVerified(userId: account.id, kind: account.kind, mailboxKey: mailboxKey)),
                toTopicNamed: usersTopic, on: connection, logger: logger)
            return .verified
        }
    }
}
