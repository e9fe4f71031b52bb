import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// auth's `auth.users` events: who the hotel survey's accounts are and when each earns its coupon (N4), and
/// account deletions and merges (U9). Facts, not counts: the same for every generation, and applying an
/// event again changes nothing.
struct UsersTopicHandler: EventHandler {
    /// When a survey account's coupon is issued (its address verified, once per mailbox).
    let coupons: SurveyCoupons
    let lifecycle: AccountLifecycleEvents

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        try await handle(batch: [event], connection: connection, logger: logger)
    }

    func handle(batch events: [ReceivedEvent], connection: PostgresConnection, logger: Logger) async throws {
        try TopicCatalogue.users.requireOwnTypes(events)
        let facts = try SurveyAccountFacts(decoding: events)
        guard !facts.isEmpty else { return }
        try await FactsStore.apply(facts, coupons: coupons, lifecycle: lifecycle, on: connection, logger: logger)
    }
}
