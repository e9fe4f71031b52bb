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

    func start(for account: Account, email: EmailAddress) async throws {
        let code = String(format: "%06d", Int.random(in: 0..<1_000_000))
        try await client.inTransaction(logger: logger) { connection in
            try await connection.query(
                """
                INSERT INTO pin_resets (code_hash, account_id, expires_at)
                VALUES (\(Self.hash(code, account.id)), \(account.id), \(Date().addingTimeInterval(lifetime)))
                ON CONFLICT (code_hash) DO UPDATE SET expires_at = EXCLUDED.expires_at, used_at = NULL
                """, logger: logger)
            try await MailQueue.enqueue(
                to: email.value, subject: "Your PIN reset code",
                body: "Your PIN reset code is \(code). It is valid for 30 minutes. If you did not ask for it, ignore this mail.",
                on: connection, logger: logger)
        }
    }

    func isValid(code: String, for accountId: UUID) async throws -> Bool {
        let rows = try await client.query(
            """
            SELECT count(*) FROM pin_resets
            WHERE code_hash = \(Self.hash(code, accountId)) AND used_at IS NULL AND expires_at > now()
            """, logger: logger)
        for try await count in rows.decode(Int.self) { return count > 0 }
        return false
    }

    /// Marks the code used and sets the PIN, once.
    func complete(code: String, accountId: UUID, pinHash: String) async throws -> Bool {
        try await client.inTransaction(logger: logger) { connection -> Bool in
            let rows = try await connection.query(
                """
                UPDATE pin_resets SET used_at = now()
                WHERE code_hash = \(Self.hash(code, accountId)) AND used_at IS NULL AND expires_at > now()
                RETURNING account_id
                """, logger: logger)
            var used = false
            for try await _ in rows.decode(UUID.self) { used = true }
            guard used else { return false }
            try await connection.query("UPDATE accounts SET pin_hash = \(pinHash) WHERE id = \(accountId)", logger: logger)
            return true
        }
    }

    static func hash(_ code: String, _ accountId: UUID) -> String {
        TokenIssuer.hash("\(accountId.uuidString):\(code)")
    }
}
