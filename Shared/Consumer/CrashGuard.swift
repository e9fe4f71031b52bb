import Logging
import PostgresNIO

/// Survives what no error handling can: a handler that traps or a process killed mid-batch. Before a batch
/// is applied, the offsets in hand are recorded in `consumer_attempts` in a committed row; the batch's own
/// transaction deletes the row. A row found at the start of the next attempt on that partition means the
/// previous attempt at those offsets never finished: the consumer then applies them one at a time, each
/// recorded alone, and a message that has already taken the process down `maxCrashes` times goes to the
/// dead-letter topic without running its handler.
public struct CrashGuard: Sendable {
    /// What `begin` found: the offsets of the attempt in progress and how many attempts started on them,
    /// this one included. `attempts` above 1 means earlier attempts died.
    public struct Attempt: Sendable, Equatable {
        public var firstOffset: Int64
        public var lastOffset: Int64
        public var attempts: Int

        /// Attempts before this one that never finished.
        public var crashes: Int { attempts - 1 }
    }

    let client: PostgresClient
    let group: String
    public let maxCrashes: Int

    public init(client: PostgresClient, group: String, maxCrashes: Int) {
        self.client = client
        self.group = group
        self.maxCrashes = maxCrashes
    }

    /// Records (and commits) that offsets `first...last` of a partition are about to be applied. When an
    /// unfinished attempt on overlapping offsets is recorded already, its range is kept and its count raised.
    public func begin(topic: String, partition: Int32, first: Int64, last: Int64, logger: Logger) async throws -> Attempt {
        let rows = try await client.query(
            """
            INSERT INTO consumer_attempts AS c (consumer_group, topic, partition, first_offset, last_offset, attempts)
            VALUES (\(group), \(topic), \(Int(partition)), \(first), \(last), 1)
            ON CONFLICT (consumer_group, topic, partition) DO UPDATE SET
                attempts = CASE WHEN c.first_offset <= EXCLUDED.last_offset AND c.last_offset >= EXCLUDED.first_offset
                    THEN c.attempts + 1 ELSE 1 END,
                first_offset = CASE WHEN c.first_offset <= EXCLUDED.last_offset AND c.last_offset >= EXCLUDED.first_offset
                    THEN c.first_offset ELSE EXCLUDED.first_offset END,
                last_offset = CASE WHEN c.first_offset <= EXCLUDED.last_offset AND c.last_offset >= EXCLUDED.first_offset
                    THEN c.last_offset ELSE EXCLUDED.last_offset END,
                started_at = now()
            RETURNING first_offset, last_offset, attempts
            """, logger: logger)
        for try await (firstOffset, lastOffset, attempts) in rows.decode((Int64, Int64, Int).self) {
            return Attempt(firstOffset: firstOffset, lastOffset: lastOffset, attempts: attempts)
        }
        throw MissingAttemptRow()
    }

    /// Records (and commits) that one message is about to be applied alone, inheriting `attempts` from the
    /// range it was part of; replaces whatever the partition's row said.
    public func narrow(topic: String, partition: Int32, offset: Int64, attempts: Int, logger: Logger) async throws {
        try await client.query(
            """
            INSERT INTO consumer_attempts (consumer_group, topic, partition, first_offset, last_offset, attempts)
            VALUES (\(group), \(topic), \(Int(partition)), \(offset), \(offset), \(attempts))
            ON CONFLICT (consumer_group, topic, partition) DO UPDATE SET first_offset = EXCLUDED.first_offset,
                last_offset = EXCLUDED.last_offset, attempts = EXCLUDED.attempts, started_at = now()
            """, logger: logger)
    }

    /// Deletes the partition's attempt row inside the transaction that applied its messages.
    public func finish(topic: String, partition: Int32, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            "DELETE FROM consumer_attempts WHERE consumer_group = \(group) AND topic = \(topic) AND partition = \(Int(partition))",
            logger: logger)
    }

    /// Deletes the partition's attempt row on its own (after dead-lettering, or after a one-at-a-time pass).
    public func finish(topic: String, partition: Int32, logger: Logger) async throws {
        try await client.query(
            "DELETE FROM consumer_attempts WHERE consumer_group = \(group) AND topic = \(topic) AND partition = \(Int(partition))",
            logger: logger)
    }
}

/// `INSERT ... RETURNING` answered no row, which Postgres never does for an upsert.
struct MissingAttemptRow: Error, CustomStringConvertible {
    var description: String { "consumer_attempts upsert returned no row" }
}
