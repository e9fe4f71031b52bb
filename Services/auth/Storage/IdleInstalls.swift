import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// Install accounts that did nothing since they were made and can no longer be used (U8): never renewed their first
/// session, whose refresh token has expired or was ended (so no app holds a way back into them), never attested,
/// paid or vouched for, and nothing was merged into them. An app that is used renews its session every few minutes;
/// one that only receives pushes still holds a live refresh token and is left alone.
struct IdleInstalls: Sendable {
    let client: PostgresClient
    let logger: Logger

    /// Up to `limit` such accounts made more than `days` days ago, oldest first.
    func made(moreThan days: Int, ago limit: Int) async throws -> [UUID] {
        try await client.tracedQuery(
            """
            SELECT a.id FROM accounts a
            WHERE a.kind = 'install' AND a.role = 'user' AND a.attested_at IS NULL AND a.entitlements = '{}'
              AND a.created_at < now() - \(days) * interval '1 day'
              AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.account_id = a.id)
              AND NOT EXISTS (SELECT 1 FROM install_merges m WHERE m.into_id = a.id)
              AND (SELECT count(*) FROM refresh_tokens r WHERE r.account_id = a.id) <= 1
              AND NOT EXISTS (
                  SELECT 1 FROM refresh_tokens r WHERE r.account_id = a.id AND r.revoked_at IS NULL AND r.expires_at > now())
            ORDER BY a.created_at LIMIT \(limit)
            """, logger: logger
        ).decode(UUID.self).collectAll()
    }
}
