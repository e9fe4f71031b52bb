import Foundation
import Logging
import PostgresNIO

/// Survives what no error handling can: a handler that traps or a process killed mid-batch. Before a batch is
/// applied, its offsets are recorded in `consumer_attempts` as in flight, in a committed row; the batch's own
/// transaction deletes the row. A row found still in flight at the start of the next attempt on that partition
/// means the process died while applying those offsets: their crash count goes up and they become suspects.
/// Suspects are applied one message at a time with nothing else in flight in the process (`ApplyGate`), each
/// recorded alone, so a crash is counted only against the one message that was running; a message that has
/// taken the process down `maxCrashes` times goes to the dead-letter topic without running its handler.
public struct CrashGuard: Sendable {
    /// What `begin` found for a partition's offsets.
    public struct Attempt: Sendable, Equatable {
        public var firstOffset: Int64
        public var lastOffset: Int64
        /// Times the process died while these offsets were in flight.
        public var crashes: Int
        /// False when the offsets are suspects from an earlier attempt (apply them one at a time).
        public var isFresh: Bool
        /// Names this attempt's row, so only its own transaction deletes it.
        public var token: UUID

        /// The crashes a message of this attempt inherits: only those inside the crashed range.
        public func crashes(of offset: Int64) -> Int {
            (firstOffset...lastOffset).contains(offset) ? crashes : 0
        }
    }

    let client: PostgresClient
    let group: String
    public let maxCrashes: Int

    public init(client: PostgresClient, group: String, maxCrashes: Int) {
        self.client = client
        self.group = group
        self.maxCrashes = maxCrashes
    }

    /// Records (and commits) that offsets `first...last` of a partition are about to be applied. When the
    /// partition's row overlaps them and was still in flight, the process died meanwhile: its crash count goes up
    /// and it is returned as suspect (not in flight) with its own range. A row that does not overlap is stale.
    public func begin(
        topic: String, partition: Int32, first: Int64, last: Int64, token: UUID, logger: Logger
    ) async throws -> Attempt {
        // The same token again is a retry of this very call (its first try may have committed after its time
        // limit): it changes nothing, so a slow database never looks like a crash.
        //
        // Committed without waiting for the WAL flush (`synchronous_commit` off for this statement alone): the row
        // is visible at once and outlives this process, which is what it guards against; only a crash of Postgres
        // itself could lose it, and then the batch it announces is lost with it (the batch's own commit, flushed,
        // flushes this row first). A flush per batch here was a second fsync on every batch's path.
        let rows = try await client.tracedQuery(
            """
            WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
            INSERT INTO consumer_attempts AS c (consumer_group, topic, partition, first_offset, last_offset, attempt_id, crashes, in_flight)
            SELECT \(group), \(topic), \(Int(partition)), \(first), \(last), \(token), 0, true FROM relaxed
            ON CONFLICT (consumer_group, topic, partition) DO UPDATE SET
                crashes = CASE WHEN c.attempt_id = EXCLUDED.attempt_id THEN c.crashes
                    WHEN c.first_offset <= EXCLUDED.last_offset AND c.last_offset >= EXCLUDED.first_offset
                    THEN c.crashes + (CASE WHEN c.in_flight THEN 1 ELSE 0 END) ELSE 0 END,
                in_flight = CASE WHEN c.attempt_id = EXCLUDED.attempt_id THEN c.in_flight
                    ELSE NOT (c.first_offset <= EXCLUDED.last_offset AND c.last_offset >= EXCLUDED.first_offset) END,
                first_offset = CASE WHEN c.attempt_id <> EXCLUDED.attempt_id
                    AND NOT (c.first_offset <= EXCLUDED.last_offset AND c.last_offset >= EXCLUDED.first_offset)
                    THEN EXCLUDED.first_offset ELSE c.first_offset END,
                last_offset = CASE WHEN c.attempt_id <> EXCLUDED.attempt_id
                    AND NOT (c.first_offset <= EXCLUDED.last_offset AND c.last_offset >= EXCLUDED.first_offset)
                    THEN EXCLUDED.last_offset ELSE c.last_offset END,
                attempt_id = CASE WHEN c.first_offset <= EXCLUDED.last_offset AND c.last_offset >= EXCLUDED.first_offset
                    THEN c.attempt_id ELSE EXCLUDED.attempt_id END,
                started_at = now()
            RETURNING first_offset, last_offset, crashes, in_flight, attempt_id
            """, logger: logger)
        for try await (firstOffset, lastOffset, crashes, inFlight, id) in rows.decode((Int64, Int64, Int, Bool, UUID).self) {
            return Attempt(firstOffset: firstOffset, lastOffset: lastOffset, crashes: crashes, isFresh: inFlight && id == token, token: id)
        }
        throw MissingReturnedRow("consumer_attempts upsert")
    }

    /// Records (and commits) that one message is about to be applied alone, in flight, with the crashes it
    /// inherited; replaces whatever the partition's row said.
    public func narrow(topic: String, partition: Int32, offset: Int64, crashes: Int, token: UUID, logger: Logger) async throws {
        try await client.tracedQuery(
            """
            INSERT INTO consumer_attempts (consumer_group, topic, partition, first_offset, last_offset, attempt_id, crashes, in_flight)
            VALUES (\(group), \(topic), \(Int(partition)), \(offset), \(offset), \(token), \(crashes), true)
            ON CONFLICT (consumer_group, topic, partition) DO UPDATE SET first_offset = EXCLUDED.first_offset,
                last_offset = EXCLUDED.last_offset, attempt_id = EXCLUDED.attempt_id, crashes = EXCLUDED.crashes, in_flight = true,
                started_at = now()
            """, logger: logger)
    }

    /// Marks the partition's offsets as no longer in flight: the service is stopping in an orderly way, which is
    /// not a crash and must not count as one.
    public func release(topic: String, partition: Int32, logger: Logger) async throws {
        try await client.tracedQuery(
            """
            UPDATE consumer_attempts SET in_flight = false
            WHERE consumer_group = \(group) AND topic = \(topic) AND partition = \(Int(partition))
            """, logger: logger)
    }

    /// Deletes the attempt's row inside the transaction that applied its messages. Only the row of this very
    /// attempt: a transaction abandoned at its time limit that commits late cannot delete a newer attempt's row.
    public func finish(_ token: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery("DELETE FROM consumer_attempts WHERE attempt_id = \(token)", logger: logger)
    }

    /// Deletes the attempt's row on its own (after a one-at-a-time pass).
    public func finish(_ token: UUID, logger: Logger) async throws {
        try await client.tracedQuery("DELETE FROM consumer_attempts WHERE attempt_id = \(token)", logger: logger)
    }

    /// Deletes whatever row the partition has (after a message was dead-lettered for crashing the process).
    public func clear(topic: String, partition: Int32, logger: Logger) async throws {
        try await client.tracedQuery(
            "DELETE FROM consumer_attempts WHERE consumer_group = \(group) AND topic = \(topic) AND partition = \(Int(partition))",
            logger: logger)
    }
}
