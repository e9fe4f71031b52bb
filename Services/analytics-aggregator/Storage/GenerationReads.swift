import Logging
import PlatformCore
import PlatformPostgres
import PostgresNIO

/// Each generation's reads of the log (N6, `generation_reads`): per topic and partition, the first offset it
/// applied and how many events. Written in the batch's transaction with the aggregates, so the reads and the
/// numbers never disagree; a rebuild compares its generation's with the live one's before switching.
enum GenerationReads {
    /// Adds the events new to `generation` to its reads; events with no log position (built in memory) have
    /// nothing to add.
    static func record(_ positions: [LogPosition], generation: Int, on connection: PostgresConnection, logger: Logger) async throws {
        let reads = PartitionRead.tally(positions.map { ($0.topic, Int($0.partition), $0.offset) })
        guard !reads.isEmpty else { return }
        let topics = reads.map(\.topic), partitions = reads.map(\.partition), firsts = reads.map(\.firstOffset)
        let counts = reads.map(\.events)
        try await connection.tracedQuery(
            """
            INSERT INTO generation_reads (generation, topic, partition, first_offset, events)
            SELECT \(generation), t, p, f, n FROM unnest(\(topics)::text[], \(partitions)::int[], \(firsts)::bigint[], \(counts)::bigint[])
                AS r(t, p, f, n)
            ON CONFLICT (generation, topic, partition) DO UPDATE SET
                first_offset = least(generation_reads.first_offset, excluded.first_offset),
                events = generation_reads.events + excluded.events
            """, logger: logger)
    }

    /// The reads of two generations, in one statement (one snapshot: a live batch writes both in one
    /// transaction).
    static func compare(live: Int, rebuilt: Int, on client: PostgresClient, logger: Logger) async throws -> LogReadComparison {
        let rows = try await client.tracedQuery(
            """
            SELECT generation, topic, partition, first_offset, events FROM generation_reads
            WHERE generation = \(live) OR generation = \(rebuilt)
            """, logger: logger)
        var liveReads: [PartitionRead] = [], rebuiltReads: [PartitionRead] = []
        for try await (generation, topic, partition, first, events) in rows.decode((Int, String, Int, Int64, Int64).self) {
            let read = PartitionRead(topic: topic, partition: partition, firstOffset: first, events: events)
            if generation == live { liveReads.append(read) } else { rebuiltReads.append(read) }
        }
        return LogReadComparison(live: liveReads, rebuilt: rebuiltReads)
    }
}
