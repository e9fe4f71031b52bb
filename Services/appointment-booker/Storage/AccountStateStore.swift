import Foundation
import Logging
import PlatformCore
import PlatformPostgres
import PostgresNIO

/// Writes and reads what auth's `auth.users` events said about each account (`AccountState`). Each fact keeps
/// the time of the event that set it, and an older event never overwrites a newer one, so events replayed or
/// delivered out of order end in the same state.
enum AccountStateStore {
    /// Sets the role if this event is not older than the one that set it; true when the row changed.
    static func setRole(_ role: UserRole, of user: String, at time: Date, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery(
            """
            INSERT INTO accounts (user_id, role, role_changed_at) VALUES (\(user), \(role.rawValue), \(time))
            ON CONFLICT (user_id) DO UPDATE SET role = excluded.role, role_changed_at = excluded.role_changed_at
            WHERE accounts.role_changed_at IS NULL OR accounts.role_changed_at <= excluded.role_changed_at
            """, logger: logger)
    }

    /// A registration sets the role only when no role change came first (events of one user can be replayed).
    static func register(_ user: String, role: UserRole, at time: Date, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery(
            """
            INSERT INTO accounts (user_id, role, role_changed_at) VALUES (\(user), \(role.rawValue), \(time))
            ON CONFLICT (user_id) DO UPDATE SET role = excluded.role, role_changed_at = excluded.role_changed_at
            WHERE accounts.role_changed_at IS NULL OR accounts.role_changed_at < excluded.role_changed_at
            """, logger: logger)
    }

    /// Sets the ban unless a newer ban event came first; true when the account went from not banned to banned
    /// now. The row is locked first, so a booking holding it (`lockedState`) finishes before the ban is read.
    static func setBanned(_ banned: Bool, of user: String, at time: Date, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        try await connection.tracedQuery("INSERT INTO accounts (user_id) VALUES (\(user)) ON CONFLICT (user_id) DO NOTHING", logger: logger)
        let before = try await connection.tracedQuery("SELECT banned FROM accounts WHERE user_id = \(user) FOR UPDATE", logger: logger)
        var wasBanned = false
        for try await value in before.decode(Bool.self) { wasBanned = value }
        let rows = try await connection.tracedQuery(
            """
            UPDATE accounts SET banned = \(banned), banned_changed_at = \(time)
            WHERE user_id = \(user) AND (banned_changed_at IS NULL OR banned_changed_at <= \(time))
            RETURNING banned
            """, logger: logger)
        for try await nowBanned in rows.decode(Bool.self) { return nowBanned && !wasBanned }
        return false
    }

    /// Whether the partner's account is known as a partner and not banned, share-locked like `lockedState`.
    static func lockedPartnerIsActive(_ partner: String, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let rows = try await connection.tracedQuery("SELECT role, banned FROM accounts WHERE user_id = \(partner) FOR SHARE", logger: logger)
        for try await (role, banned) in rows.decode((String, Bool).self) { return role == UserRole.partner.rawValue && !banned }
        return false
    }

    /// Records a grant or a revocation unless a newer one of the same entitlement came first.
    static func setEntitlement(
        _ entitlement: String, granted: Bool, of user: String, at time: Date, on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.tracedQuery(
            """
            INSERT INTO account_entitlements (user_id, entitlement, granted, changed_at) VALUES (\(user), \(entitlement), \(granted), \(time))
            ON CONFLICT (user_id, entitlement) DO UPDATE SET granted = excluded.granted, changed_at = excluded.changed_at
            WHERE account_entitlements.changed_at <= excluded.changed_at
            """, logger: logger)
    }

    /// The state of `user`, its row created if new and share-locked until the transaction ends, so an event
    /// changing it waits for the caller's transaction (and sees what it wrote).
    static func lockedState(of user: String, on connection: PostgresConnection, logger: Logger) async throws -> AccountState {
        try await connection.tracedQuery("INSERT INTO accounts (user_id) VALUES (\(user)) ON CONFLICT (user_id) DO NOTHING", logger: logger)
        let rows = try await connection.tracedQuery("SELECT role, banned FROM accounts WHERE user_id = \(user) FOR SHARE", logger: logger)
        var state = AccountState.unknown
        for try await (role, banned) in rows.decode((String, Bool).self) { (state.role, state.banned) = (UserRole(rawValue: role), banned) }
        let entitlements = try await connection.tracedQuery(
            "SELECT entitlement, granted FROM account_entitlements WHERE user_id = \(user)", logger: logger)
        for try await (entitlement, granted) in entitlements.decode((String, Bool).self) {
            if granted { state.granted.insert(entitlement) } else { state.revoked.insert(entitlement) }
        }
        return state
    }

    static func state(of user: String, client: PostgresClient, logger: Logger) async throws -> AccountState {
        let rows = try await client.tracedQuery(
            """
            SELECT a.role, coalesce(a.banned, false),
                coalesce((SELECT array_agg(e.entitlement) FROM account_entitlements e WHERE e.user_id = \(user) AND NOT e.granted), '{}'),
                coalesce((SELECT array_agg(e.entitlement) FROM account_entitlements e WHERE e.user_id = \(user) AND e.granted), '{}')
            FROM (SELECT \(user)::text AS user_id) asked LEFT JOIN accounts a ON a.user_id = asked.user_id
            """, logger: logger)
        for try await (role, banned, revoked, granted) in rows.decode((String?, Bool, [String], [String]).self) {
            return AccountState(role: role.flatMap(UserRole.init(rawValue:)), banned: banned, revoked: Set(revoked), granted: Set(granted))
        }
        return .unknown
    }
}
