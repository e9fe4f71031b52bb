import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformPostgres
import PostgresNIO

/// Applies auth's `auth.users` events (U5, U6) inside the idempotent consumer's transaction, so each applies
/// once: account deletions and merges (`AppointmentsOwner`), roles (who is a partner), bans, and entitlement grants
/// and revocations. Each fact keeps its event's
/// time, so a replayed or late event cannot undo a newer one. A new ban cancels the user's future bookings
/// and publishes the cancellations. Events this service does not need (logins, verified addresses) are skipped.
struct UsersTopicHandler: EventHandler {
    let bookingsTopic: String
    let lifecycle: AccountLifecycleEvents

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        if try await lifecycle.apply(event, on: connection, logger: logger) { return }
        let time = event.header.occurredAt
        switch event.header.type {
        case EventTypes.userRegistered:
            let registered = try event.payload(as: UserRegistered.self)
            try await AccountStateStore.register(
                AccountKey.of(registered.userId), role: registered.role, at: time, on: connection, logger: logger)
        case EventTypes.userRoleChanged:
            let changed = try event.payload(as: UserRoleChanged.self)
            try await AccountStateStore.setRole(
                changed.role, of: AccountKey.of(changed.userId), at: time, on: connection, logger: logger)
        case EventTypes.userBanned:
            let ban = try event.payload(as: UserBanned.self)
            let user = AccountKey.of(ban.userId)
            if try await AccountStateStore.setBanned(ban.banned, of: user, at: time, on: connection, logger: logger) {
                let cancelled = try await BookingStore.cancelFuture(
                    of: user, reason: "account banned", topic: bookingsTopic, on: connection, logger: logger)
                logger.info("banned user's bookings cancelled", metadata: ["user": "\(user)", "bookings": "\(cancelled)"])
            }
        case EventTypes.entitlementGranted:
            let grant = try event.payload(as: EntitlementGranted.self)
            try await AccountStateStore.setEntitlement(
                grant.entitlement.rawValue, granted: true, of: AccountKey.of(grant.userId), at: time, on: connection, logger: logger)
        case EventTypes.entitlementRevoked:
            let revoke = try event.payload(as: EntitlementRevoked.self)
            try await AccountStateStore.setEntitlement(
                revoke.entitlement.rawValue, granted: false, of: AccountKey.of(revoke.userId), at: time, on: connection, logger: logger)
        case EventTypes.userLoggedIn, EventTypes.userEmailVerified:
            return
        default:
            throw EventDecodingError(reason: "appointment-booker does not handle \(event.header.type) events")
        }
    }
}
