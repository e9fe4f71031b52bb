import Foundation
import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// analytics' own `analytics.telemetry` events (N2): telemetry, poll answers, survey submissions and their reasons
/// into the aggregates of every generation being kept (or of one, for a rebuild), each event once per generation.
/// It keeps its own "applied" marks (`applied_events`), per generation, so its consumer runs with the `.handler`
/// ledger. A batch is folded in memory first (`AggregateDelta`): one statement per aggregate table per batch.
struct TelemetryTopicHandler: EventHandler {
    let writer: AggregateWriter
    /// nil: the live consumer (current and building generations); a number: only that one (a rebuild).
    let target: Int?

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        try await handle(batch: [event], connection: connection, logger: logger)
    }

    func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws {
        try TopicCatalogue.telemetry.requireOwnTypes(events)
        // Decoded once, before anything is written: a payload that does not decode fails the batch, which the
        // consumer then applies one event at a time, dead-lettering that one.
        let counted = try AggregateDelta.decode(events)
        guard !counted.isEmpty else { return }
        let generations: [Int]
        if let target {
            // Switched or given up: whatever the rebuild still holds, the live consumer applies to the new one.
            guard try await Generations.isBuilding(target, on: connection, logger: logger) else { return }
            generations = [target]
        } else {
            generations = try await Generations.live(on: connection, logger: logger)
        }
        let ids = counted.map(\.id)
        let positions = Dictionary(events.compactMap { event in event.position.map { (event.header.id, $0) } }) { first, _ in first }
        for generation in generations {
            var fresh = try await AppliedEvents.markNew(ids, generation: generation, on: connection, logger: logger)
            // An id twice in one batch counts once: only its first occurrence is new.
            let new = counted.filter { fresh.remove($0.id) != nil }
            guard !new.isEmpty else { continue }
            try await writer.write(AggregateDelta(folding: new.map(\.event)), generation: generation, on: connection, logger: logger)
            try await GenerationReads.record(new.compactMap { positions[$0.id] }, generation: generation, on: connection, logger: logger)
        }
    }
}
