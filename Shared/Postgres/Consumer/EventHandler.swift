import Logging
import PlatformEvents
import PostgresNIO

/// What a service does with the events of the topics it consumes. It runs inside the transaction that also
/// records the event ids, so its writes and the "seen" marks commit together or not at all. Throw a
/// `PermanentEventError` for an event that can never succeed (it is dead-lettered at once); infrastructure
/// errors (database or broker unavailable) are retried for as long as they last; anything else is retried a
/// few times and then dead-lettered (see `EventFailure`).
public protocol EventHandler: Sendable {
    /// Applies one event.
    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws

    /// Applies the new events of one partition, in partition order, in one transaction. The default applies
    /// them one by one with `handle(_:connection:logger:)`, each in a consumer span of its own trace; a handler overrides it where a batch can be applied
    /// more cheaply than its events (keeping only the newest state of each entity, say). When it throws, the
    /// consumer rolls the batch back and applies its events one at a time, so one bad event does not hold
    /// its neighbours. An override gives its events their spans itself (`EventTracing`).
    func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws
}

extension EventHandler {
    public func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws {
        for event in events {
            try await EventTracing.handling(event) { try await handle(event, connection: connection, logger: logger) }
        }
    }
}

/// An `EventHandler` from a closure.
public struct ClosureEventHandler: EventHandler {
    let body: @Sendable (ReceivedEvent, PostgresConnection, Logger) async throws -> Void

    public init(_ body: @escaping @Sendable (ReceivedEvent, PostgresConnection, Logger) async throws -> Void) {
        self.body = body
    }

    public func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        try await body(event, connection, logger)
    }
}
