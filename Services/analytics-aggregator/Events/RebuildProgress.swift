import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO
import Synchronization

/// Wraps the rebuild's handler to count what it applied, for the progress lines.
final class RebuildProgress: EventHandler, Sendable {
    let inner: AnalyticsTopicHandlers
    private let applied = Atomic<Int>(0)

    init(inner: AnalyticsTopicHandlers) {
        self.inner = inner
    }

    var eventsApplied: Int { applied.load(ordering: .acquiring) }

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        try await handle(batch: [event], connection: connection, logger: logger)
    }

    func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws {
        try await inner.handle(batch: events, connection: connection, logger: logger)
        // Counted before the commit: the figure is progress for a person, not a ledger.
        applied.add(events.count, ordering: .acquiringAndReleasing)
    }
}
