import Foundation
import Logging
import PlatformEvents
import PostgresNIO

/// Applies events at most once per service: the event ids go into `processed_events` in the same
/// transaction as the handler's writes. A second delivery finds the id and changes nothing; two instances
/// handling the same event at once serialise on the primary key, and the later one sees a duplicate.
public struct IdempotentProcessor: Sendable {
    public enum Outcome: String, Sendable {
        case applied
        case duplicate
    }

    /// What one batch did: how many events were new (and applied) and how many had been applied before.
    public struct BatchOutcome: Sendable, Equatable {
        public var applied: Int
        public var duplicates: Int
    }

    /// Work that must commit or roll back with the events (the crash guard's row, say).
    public typealias TransactionStep = @Sendable (PostgresConnection) async throws -> Void

    /// Where the "applied" marks live.
    public enum Ledger: Sendable {
        /// `processed_events`, one mark per event for the whole service.
        case processedEvents
        /// The handler keeps its own marks in its transaction and sees every event: a service that applies
        /// one event to several copies of its read model (analytics' rebuild generations) needs a mark per copy.
        case handler
    }

    let client: PostgresClient
    let ledger: Ledger

    public init(client: PostgresClient, ledger: Ledger = .processedEvents) {
        self.client = client
        self.ledger = ledger
    }

    public func process(
        _ event: ReceivedEvent, topic: String, handler: any EventHandler, logger: Logger, alsoInTransaction: TransactionStep? = nil
    ) async throws -> Outcome {
        let outcome = try await process(
            batch: [event], topic: topic, handler: handler, logger: logger, alsoInTransaction: alsoInTransaction)
        return outcome.applied == 1 ? .applied : .duplicate
    }

    /// Applies the events of one partition in one transaction: their ids are recorded with one statement, and
    /// the handler sees only the events not recorded before (each once, in the order given).
    public func process(
        batch events: [ReceivedEvent], topic: String, handler: any EventHandler, logger: Logger,
        alsoInTransaction: TransactionStep? = nil
    ) async throws -> BatchOutcome {
        // `inTransaction` surfaces the handler's own error, so a PermanentEventError is recognised as one.
        try await client.inTransaction(logger: logger) { connection in
            if ledger == .handler {
                try await handler.handle(batch: events, connection: connection, logger: logger)
                try await alsoInTransaction?(connection)
                return BatchOutcome(applied: events.count, duplicates: 0)
            }
            // An id twice in one batch is new once at most: only its first occurrence counts.
            var seen = Set<UUID>(minimumCapacity: events.count)
            let firsts = events.filter { seen.insert($0.header.id).inserted }
            let ids = firsts.map(\.header.id)
            // Returns the ids recorded before, not the ones recorded now: a batch is almost always all new, so this
            // reads back no row instead of one per event.
            let rows = try await connection.tracedQuery(
                """
                WITH batch AS (SELECT id FROM unnest(\(ids)::uuid[]) AS batch(id)),
                recorded AS (
                    INSERT INTO processed_events (event_id, topic) SELECT id, \(topic) FROM batch
                    ON CONFLICT (event_id) DO NOTHING RETURNING event_id
                )
                SELECT id FROM batch WHERE id NOT IN (SELECT event_id FROM recorded)
                """, logger: logger)
            var before: Set<UUID> = []
            for try await id in rows.decode(UUID.self) { before.insert(id) }
            let fresh = before.isEmpty ? firsts : firsts.filter { !before.contains($0.header.id) }
            if !fresh.isEmpty {
                try await handler.handle(batch: fresh, connection: connection, logger: logger)
            }
            try await alsoInTransaction?(connection)
            return BatchOutcome(applied: fresh.count, duplicates: events.count - fresh.count)
        }
    }
}
