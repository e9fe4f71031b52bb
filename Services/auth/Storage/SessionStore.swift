import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// Refresh tokens, stored as SHA-256 hashes. Each login starts a family; each refresh revokes the presented
/// token and issues the next one of the family. Presenting a rotated token again (a stolen token replayed, or
/// the legitimate one after a thief used it) revokes the whole family; a token whose session ended (logout, new
/// password, ban) is just invalid.
struct SessionStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    let lifetime: TimeInterval

    /// Starts a session; returns its first refresh token.
    func start(accountId: UUID) async throws -> String {
        let token = TokenIssuer.newRefreshToken()
        let expires = Date().addingTimeInterval(lifetime)
        try await client.tracedQuery(
            """
            INSERT INTO refresh_tokens (token_hash, account_id, family, expires_at)
            VALUES (\(TokenIssuer.hash(token)), \(accountId), \(UUID()), \(expires))
            """, logger: logger)
        return token
    }

    func rotate(_ token: String) async throws -> RefreshOutcome {
        let hash = TokenIssuer.hash(token)
        return try await client.inTransaction(logger: logger) { connection -> RefreshOutcome in
            let rows = try await connection.tracedQuery(
                """
                SELECT account_id, family, expires_at > now(), revoked_at IS NOT NULL, coalesce(revoked_reason, 'rotated') = 'rotated'
                FROM refresh_tokens WHERE token_hash = \(hash) FOR UPDATE
                """, logger: logger)
            var found: (UUID, UUID, Bool, Bool, Bool)?
            for try await row in rows.decode((UUID, UUID, Bool, Bool, Bool).self) { found = row }
            guard let (accountId, family, live, revoked, rotated) = found else { return .invalid }
            if revoked {
                guard rotated else { return .invalid }
                try await connection.tracedQuery(
                    """
                    UPDATE refresh_tokens SET revoked_at = now(), revoked_reason = 'ended' WHERE family = \(family) AND revoked_at IS NULL
                    """, logger: logger)
                return .reused
            }
            guard live else { return .invalid }
            let next = TokenIssuer.newRefreshToken()
            try await connection.tracedQuery(
                "UPDATE refresh_tokens SET revoked_at = now(), revoked_reason = 'rotated' WHERE token_hash = \(hash)", logger: logger)
            try await connection.tracedQuery(
                """
                INSERT INTO refresh_tokens (token_hash, account_id, family, expires_at)
                VALUES (\(TokenIssuer.hash(next)), \(accountId), \(family), \(Date().addingTimeInterval(lifetime)))
                """, logger: logger)
            return .rotated(accountId: accountId, newToken: next)
        }
    }

    /// Ends every session of an account inside the caller's transaction (new password, ban).
    static func revokeAll(of accountId: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery(
            "UPDATE refresh_tokens SET revoked_at = now(), revoked_reason = 'ended' WHERE account_id = \(accountId) AND revoked_at IS NULL",
            logger: logger)
    }

    /// Ends the session the token belongs to (logout). Returns false when the token is unknown.
    func end(_ token: String, accountId: UUID) async throws -> Bool {
        let rows = try await client.tracedQuery(
            """
            UPDATE refresh_tokens SET revoked_at = now(), revoked_reason = 'ended'
            WHERE family = (SELECT family FROM refresh_tokens WHERE token_hash = \(TokenIssuer.hash(token)) AND account_id = \(accountId))
              AND revoked_at IS NULL
            RETURNING token_hash
            """, logger: logger)
        var ended = false
        for try await _ in rows.decode(String.self) { ended = true }
        return ended
    }
}
