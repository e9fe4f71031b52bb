import Crypto
import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// Six-digit codes mailed to prove an account owns its email address (forgot-PIN, email verification). Each
/// kind has a table of its own with `code_hash`, `account_id`, `expires_at` and `used_at`. Codes are stored
/// keyed-hashed with the account id: a million values could be reversed from a plain hash by anyone who can read
/// the table, not without the key derived from the service's signing key.
struct MailedCodes: Sendable {
    /// The table, one of the fixed names below (never from input).
    let table: Table
    let lifetime: TimeInterval
    let codeKey: SymmetricKey
    let logger: Logger

    enum Table: String, Sendable {
        case pinResets = "pin_resets"
        case emailVerifications = "email_verifications"

        /// What the table's key is derived with. PIN-reset codes keep the label they were hashed with before the
        /// codes shared this type, so live codes stay valid across the upgrade.
        var keyLabel: String {
            switch self {
            case .pinResets: "pin-reset-codes"
            case .emailVerifications: rawValue
            }
        }
    }

    init(table: Table, lifetime: TimeInterval, signingKey: String, logger: Logger) {
        self.table = table
        self.lifetime = lifetime
        self.logger = logger
        codeKey = SymmetricKey(data: SHA256.hash(data: Data("\(table.keyLabel)|\(signingKey)".utf8)))
    }

    /// A new code, the account's only live one: the ones before it stop working, and a code used before never
    /// works again (a draw that repeats one of the account's earlier codes is drawn again). The caller holds the
    /// account's row lock, so two issues for one account take turns.
    func issue(for accountId: UUID, on connection: PostgresConnection) async throws -> String {
        try await connection.tracedQuery(
            "UPDATE \(unescaped: table.rawValue) SET used_at = now() WHERE account_id = \(accountId) AND used_at IS NULL", logger: logger)
        for _ in 0..<20 {
            let candidate = String(format: "%06d", Int.random(in: 0..<1_000_000))
            let inserted = try await connection.tracedQuery(
                """
                INSERT INTO \(unescaped: table.rawValue) (code_hash, account_id, expires_at)
                VALUES (\(hash(candidate, accountId)), \(accountId), \(Date().addingTimeInterval(lifetime)))
                ON CONFLICT (code_hash) DO NOTHING RETURNING account_id
                """, logger: logger
            ).collectAll()
            if !inserted.isEmpty { return candidate }
        }
        throw NotIssued()
    }

    /// Twenty draws all hit a code in use: not expected with a million values, but not a fault to hide either.
    struct NotIssued: Error {}

    func isValid(code: String, for accountId: UUID, on connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.tracedQuery(
            """
            SELECT count(*) FROM \(unescaped: table.rawValue)
            WHERE code_hash = \(hash(code, accountId)) AND used_at IS NULL AND expires_at > now()
            """, logger: logger)
        for try await count in rows.decode(Int.self) { return count > 0 }
        return false
    }

    /// Marks the code used; false when it is not live (wrong, expired or used).
    func consume(code: String, for accountId: UUID, on connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.tracedQuery(
            """
            UPDATE \(unescaped: table.rawValue) SET used_at = now()
            WHERE code_hash = \(hash(code, accountId)) AND used_at IS NULL AND expires_at > now()
            RETURNING account_id
            """, logger: logger)
        var used = false
        for try await _ in rows.decode(UUID.self) { used = true }
        return used
    }

    func hash(_ code: String, _ accountId: UUID) -> String {
        HMAC<SHA256>.authenticationCode(for: Data("\(accountId.uuidString):\(code)".utf8), using: codeKey)
            .map { String(format: "%02x", $0) }.joined()
    }
}
