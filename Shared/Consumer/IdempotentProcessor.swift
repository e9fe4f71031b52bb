import Logging
import PostgresNIO

/// Applies an event at most once per service: the event id goes into `processed_events` in the same
/// transaction as the handler's writes. A second delivery finds the id and changes nothing; two instances
/// handling the same event at once serialise on the primary key, and the later one sees a duplicate.
public struct IdempotentProcessor: Sendable {
    public enum Outcome: String, Sendable {
        case applied
        case duplicate
    }

    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    public func process(
        _ event: ReceivedEvent, topic: String, handler: any EventHandler, logger: Logger
    ) async throws -> Outcome {
        // `inTransaction` surfaces the handler's own error, so a PermanentEventError is recognised as one.
        try await client.inTransaction(logger: logger) { connection in
            let rows = try await connection.query(
                """
                INSERT INTO processed_events (event_id, topic) VALUES (\(event.header.id), \(topic))
                ON CONFLICT (event_id) DO NOTHING RETURNING event_id
                """, logger: logger)
            var inserted = false
            for try await _ in rows { inserted = true }
            guard inserted else { return .duplicate }
            try await handler.handle(event, connection: connection, logger: logger)
            return .applied
        }
    }
}
