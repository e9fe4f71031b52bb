import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// One-time codes that prove a survey user owns the email before a new PIN is set. The seed's forgot-PIN view
/// asks for nothing (its PINs lived on the phone); on a server, resetting a PIN with only an email would let
/// anyone take any account, so a 6-digit code is mailed first; it expires after 30 minutes.
struct PinResetStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    let codes: MailedCodes
    let mail: MailQueue

    init(client: PostgresClient, logger: Logger, signingKey: String, mail: MailQueue) {
        self.client = client
        self.logger = logger
        self.mail = mail
        codes = MailedCodes(table: .pinResets, lifetime: 1_800, signingKey: signingKey, logger: logger)
    }

    /// Mails a new code; it retires the account's earlier ones.
    func start(for account: Account, email: EmailAddress) async throws {
        try await client.inTransaction(logger: logger) { connection in
            // Starts for one account take turns: two at once would each retire only the codes they can see.
            try await connection.tracedQuery("SELECT id FROM accounts WHERE id = \(account.id) FOR UPDATE", logger: logger)
            let code = try await codes.issue(for: account.id, on: connection)
            try await mail.enqueue(
                to: email.value, subject: "Your PIN reset code",
                body: "Your PIN reset code is \(code). It is valid for 30 minutes. If you did not ask for it, ignore this mail.",
                on: connection, logger: logger)
        }
    }

    func isValid(code: String, for accountId: UUID) async throws -> Bool {
        try await client.withConnection { try await codes.isValid(code: code, for: accountId, on: $0) }
    }

    /// Marks the code used, sets the PIN and ends every session, once.
    func complete(code: String, accountId: UUID, pinHash: String) async throws -> Bool {
        try await client.inTransaction(logger: logger) { connection -> Bool in
            guard try await codes.consume(code: code, for: accountId, on: connection) else { return false }
            try await connection.tracedQuery("UPDATE accounts SET pin_hash = \(pinHash) WHERE id = \(accountId)", logger: logger)
            // Whoever knew the old PIN is signed out everywhere.
            try await SessionStore.revokeAll(of: accountId, on: connection, logger: logger)
            return true
        }
    }
}
