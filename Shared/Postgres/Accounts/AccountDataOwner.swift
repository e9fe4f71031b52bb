import Logging
import PlatformCore
import PlatformEvents
import PostgresNIO

/// A service's part in an account's end (U9): what it does with the personal data it holds when auth
/// deletes the account (`user.deleted`) or merges an install account into another (`user.merged`). Both run in
/// the consumer's transaction and must be idempotent: applied again, they find nothing left to do.
public protocol AccountDataOwner: Sendable {
    /// Erases the account's personal data, or anonymises what others' data depends on (the table in docs/architecture.md).
    func erase(user: String, on connection: PostgresConnection, logger: Logger) async throws
    /// Gives `into` what `from` had; where both have the same thing, `into`'s stays.
    func merge(from: String, into: String, on connection: PostgresConnection, logger: Logger) async throws
}

/// Applies `user.deleted` and `user.merged` for a service: the owner's erasure or merge, and the ended account's
/// hash among the erased ones, so its access tokens are refused here from now on.
public struct AccountLifecycleEvents: Sendable {
    let owner: any AccountDataOwner
    let erased: ErasedAccounts

    public init(owner: any AccountDataOwner, erased: ErasedAccounts) {
        self.owner = owner
        self.erased = erased
    }

    public static let types: Set<EventType> = [EventTypes.userDeleted, EventTypes.userMerged]

    /// Applies the event when it is a deletion or a merge; false for any other event.
    public func apply(_ event: ReceivedEvent, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        switch event.header.type {
        case EventTypes.userDeleted:
            let user = AccountKey.of(try event.payload(as: UserDeleted.self).userId)
            try await Self.lock([user], on: connection, logger: logger)
            try await owner.erase(user: user, on: connection, logger: logger)
            try await ErasedAccountsStore.record(user, in: erased, on: connection, logger: logger)
            logger.info("account erased", metadata: ["user": "\(user)"])
            return true
        case EventTypes.userMerged:
            let merged = try event.payload(as: UserMerged.self)
            let from = AccountKey.of(merged.fromUserId), into = AccountKey.of(merged.intoUserId)
            guard from != into else { throw EventDecodingError(reason: "user.merged names one account twice") }
            // Partitions are applied at the same time: the lasting account's deletion, if it is being applied, commits
            // before this looks for it, or waits for this merge.
            try await Self.lock([from, into], on: connection, logger: logger)
            // The lasting account's deletion travels in its own partition and may have come first: then the install's
            // data goes as well instead of joining an account that no longer exists.
            if try await ErasedAccountsStore.isErased(into, in: erased, on: connection, logger: logger) {
                try await owner.erase(user: from, on: connection, logger: logger)
            } else {
                try await owner.merge(from: from, into: into, on: connection, logger: logger)
            }
            try await ErasedAccountsStore.record(from, in: erased, on: connection, logger: logger)
            logger.info("account merged", metadata: ["from": "\(from)", "into": "\(into)"])
            return true
        default:
            return false
        }
    }

    /// Transaction locks on the accounts, taken in one order so two events cannot wait on each other.
    private static func lock(_ accounts: [String], on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery(
            "SELECT pg_advisory_xact_lock(hashtextextended('account:' || k, 0)) FROM unnest(\(accounts.sorted())::text[]) AS k ORDER BY k",
            logger: logger)
    }
}

/// The consumer handler of a service that reads `auth.users` only for deletions and merges: those to the
/// lifecycle, auth's other account events skipped, everything else to the service's own handler.
public struct AccountEventsRouter: EventHandler {
    let lifecycle: AccountLifecycleEvents
    let next: (any EventHandler)?

    public init(lifecycle: AccountLifecycleEvents, next: (any EventHandler)?) {
        self.lifecycle = lifecycle
        self.next = next
    }

    /// A batch is one partition's, so of one topic: a batch without account events goes whole to the service's
    /// handler, which may apply it more cheaply than event by event.
    public func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws {
        if let next, !events.contains(where: { TopicCatalogue.users.eventTypes.contains($0.header.type) }) {
            return try await next.handle(batch: events, connection: connection, logger: logger)
        }
        for event in events {
            try await EventTracing.handling(event) { try await handle(event, connection: connection, logger: logger) }
        }
    }

    public func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        if try await lifecycle.apply(event, on: connection, logger: logger) { return }
        if TopicCatalogue.users.eventTypes.contains(event.header.type) { return }
        guard let next else { throw EventDecodingError(reason: "no handler for \(event.header.type) events") }
        try await next.handle(event, connection: connection, logger: logger)
    }
}
