import Logging
import PostgresNIO
import Shared
import Synchronization

/// Wraps the rebuild's handler to count what it applied and whether a batch is in hand: the rebuild is
/// caught up only when no batch is being applied and nothing is left behind the high watermarks.
final class RebuildProgress: EventHandler, Sendable {
    let inner: AggregateHandler
    private let inFlight = Atomic<Int>(0)
    private let applied = Atomic<Int>(0)

    init(inner: AggregateHandler) {
        self.inner = inner
    }

    var eventsApplied: Int { applied.load(ordering: .acquiring) }
    var isIdle: Bool { inFlight.load(ordering: .acquiring) == 0 }

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        try await handle(batch: [event], connection: connection, logger: logger)
    }

    func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws {
        inFlight.add(1, ordering: .acquiringAndReleasing)
        defer { inFlight.subtract(1, ordering: .acquiringAndReleasing) }
        try await inner.handle(batch: events, connection: connection, logger: logger)
        // Counted before the commit: the figure is progress for a person, not a ledger.
        applied.add(events.count, ordering: .acquiringAndReleasing)
    }
}
