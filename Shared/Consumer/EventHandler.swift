import Logging
import PostgresNIO

/// What a service does with one event of the topics it consumes. It runs inside the transaction that also
/// records the event id, so its writes and the "seen" mark commit together or not at all. Throw a
/// `PermanentEventError` for an event that can never succeed; other errors are retried, then dead-lettered.
public protocol EventHandler: Sendable {
    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws
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
