import Crypto
import Foundation
import Logging
import PostgresNIO
import Shared

/// One-time codes that prove a survey user owns the email before a new PIN is set. The seed's forgot-PIN view
/// asks for nothing (its PINs lived on the phone); on a server, resetting a PIN with only an email would let
/// anyone take any account, so a 6-digit code is mailed first. Codes are stored hashed (with the account id,
/// so equal codes of two users do not collide) and expire after 30 minutes.
struct PinResetStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    let lifetime: TimeInterval = 1_800
    /// Keys the stored code hashes: a 6-digit code has a million values, so a plain hash could be reversed by
    /// anyone who can read the table; with a key from the service's signing key it cannot.
    let codeKey: SymmetricKey

    let mail: MailQueue

    init(client: PostgresClient, logger: Logger, signingKey: String, mail: MailQueue) {
        self.client = client
        self.logger = logger
        self.mail = mail
        codeKey = SymmetricKey(data: SHA256.hash(data: Data("pin-reset-codes|\(signingKey)".utf8)))
    }

    /// Mails a new code. It is the account's only live code: the ones before it stop working, and a code used
    /// before never works again (a draw that repeats one of the account's earlier codes is drawn again).
    func start(for account: Account, email: EmailAddress) async throws {
        try await client.inTransaction(logger: logger) { connection in
            // Starts for one account take turns: two at once would each retire only the codes they can see.
            try await connection.tracedQuery("SELECT id FROM accounts WHERE id = \(account.id) FOR UPDATE", logger: logger)
            try await connection.tracedQuery(
                "UPDATE pin_resets SET used_at = now() WHERE account_id = \(account.id) AND used_at IS NULL", logger: logger)
            var code: String?
            for _ in 0..<20 where code == nil {
                let candidate = String(format: "%06d", Int.random(in: 0..<1_000_000))
                let inserted = try await connection.tracedQuery(
                    """
                    INSERT INTO pin_resets (code_hash, account_id, expires_at)
                    VALUES (\(hash(candidate, account.id)), \(account.id), \(Date().addingTimeInterval(lifetime)))
                    ON CONFLICT (code_hash) DO NOTHING RETURNING account_id
                    """, logger: logger
                ).collectAll()
                if !inserted.isEmpty { code = candidate }
            }
            guard let code else { throw APIError(.serviceUnavailable, code: "code_not_created", message: "could not make a code; try again") }
            try await mail.enqueue(
                to: email.value, subject: "Your PIN reset code",
                body: "Your PIN reset code is \(code). It is valid for 30 minutes. If you did not ask for it, ignore this mail.",
                on: connection, logger: logger)
        }
    }

    func isValid(code: String, for accountId: UUID) async throws -> Bool {
        let rows = try await client.tracedQuery(
            """
            SELECT count(*) FROM pin_resets
            WHERE code_hash = \(hash(code, accountId)) AND used_at IS NULL AND expires_at > now()
            """, logger: logger)
        for try await count in rows.decode(Int.self) { return count > 0 }
        return false
    }

    /// Marks the code used, sets the PIN and ends every session, once.
    func complete(code: String, accountId: UUID, pinHash: String) async throws -> Bool {
        try await client.inTransaction(logger: logger) { connection -> Bool in
            let rows = try await connection.tracedQuery(
                """
                UPDATE pin_resets SET used_at = now()
                WHERE code_hash = \(hash(code, accountId)) AND used_at IS NULL AND expires_at > now()
                RETURNING account_id
                """, logger: logger)
            var used = false
            for try await _ in rows.decode(UUID.self) { used = true }
            guard used else { return false }
            try await connection.tracedQuery("UPDATE accounts SET pin_hash = \(pinHash) WHERE id = \(accountId)", logger: logger)
            // Whoever knew the old PIN is signed out everywhere.
            try await SessionStore.revokeAll(of: accountId, on: connection, logger: logger)
            return true
        }
    }

    func hash(_ code: String, _ accountId: UUID) -> String {
        HMAC<SHA256>.authenticationCode(for: Data("\(accountId.uuidString):\(code)".utf8), using: codeKey)
            .map { String(format: "%02x", $0) }.joined()
    }
}
