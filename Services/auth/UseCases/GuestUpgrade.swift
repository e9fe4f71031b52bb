import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// Horoscope guests from before issue 29 (accounts of role `guest`) become what a guest is now: install accounts of
/// the horoscope app with the role `user`, each with `user.role-changed` published so the other services stop
/// refusing them. Runs at start, in batches; nothing is left to do once no guest is left.
struct GuestUpgrade: Sendable {
    let admin: AdminStore

    func run(client: PostgresClient, logger: Logger) async throws {
        var upgraded = 0
        while true {
            let guests = try await client.tracedQuery(
                "SELECT id FROM accounts WHERE role = 'guest' ORDER BY id LIMIT 500", logger: logger
            ).decode(UUID.self).collectAll()
            guard !guests.isEmpty else { break }
            for id in guests {
                try await client.tracedQuery(
                    "UPDATE accounts SET kind = 'install', app = 'horoscope', install_id = coalesce(install_id, 'guest') WHERE id = \(id)",
                    logger: logger)
                _ = try await admin.update(id: id, displayName: nil, role: .user, banned: nil)
                upgraded += 1
            }
        }
        if upgraded > 0 { logger.notice("horoscope guests made install accounts", metadata: ["accounts": "\(upgraded)"]) }
    }
}
