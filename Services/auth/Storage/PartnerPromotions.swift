import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// What appointment-booker's fortune-teller applications (B6) change in auth's accounts, on the consumer's
/// transaction so that the event, the mails and the role change are applied together or not at all.
enum PartnerPromotions {
    /// The addresses of the admins to alert: not banned, with an address.
    static func adminAddresses(on connection: PostgresConnection, logger: Logger) async throws -> [String] {
        try await connection.tracedQuery(
            "SELECT email FROM accounts WHERE role = 'admin' AND NOT banned AND email IS NOT NULL ORDER BY email", logger: logger
        ).decode(String.self).collectAll()
    }

    /// Makes a user account a partner and publishes `user.role-changed`; false (nothing changed) for an unknown
    /// account or one that is not a plain user (an admin stays an admin; a banned account stays as it is).
    static func makePartner(_ user: UUID, usersTopic: String, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let changed = try await connection.tracedQuery(
            "UPDATE accounts SET role = 'partner' WHERE id = \(user) AND role = 'user' RETURNING id", logger: logger
        ).collectAll()
        guard !changed.isEmpty else { return false }
        try await Outbox.enqueue(
            EventEnvelope(
                type: EventTypes.userRoleChanged, producer: "auth", key: AccountKey.of(user),
                payload: UserRoleChanged(userId: user, role: .partner)),
            toTopicNamed: usersTopic, on: connection, logger: logger)
        return true
    }
}
