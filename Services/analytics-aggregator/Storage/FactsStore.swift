import Foundation
import Logging
import PlatformEvents
import PlatformHTTP
import PlatformPostgres
import PostgresNIO

/// What other services' events say that analytics keeps as facts, not counts: auth's survey accounts (who
/// may take the hotel survey, N4) and city names from weather's favourites (location reports, N2). Upserts,
/// so applying an event again changes nothing; a city keeps the least name it was given, whatever the order.
/// Account deletions and merges go to `AnalyticsAccountsOwner`, idempotent as well.
enum FactsStore {
    static func apply(
        _ events: [ReceivedEvent], coupons: SurveyCoupons, lifecycle: AccountLifecycleEvents, on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        var ended: [ReceivedEvent] = []
        var surveyAccounts: [String] = [], registeredAt: [Date] = []
        var verified: [(user: String, mailboxKey: String, at: Date)] = []
        var cityNames: [Int: String] = [:]
        for event in events {
            switch event.header.type {
            case EventTypes.userRegistered:
                let registered = try event.payload(as: UserRegistered.self)
                guard registered.kind == "survey" else { continue }
                surveyAccounts.append(registered.userId.uuidString.lowercased())
                registeredAt.append(event.header.occurredAt)
            case EventTypes.userEmailVerified:
                let confirmed = try event.payload(as: UserEmailVerified.self)
                guard confirmed.kind == "survey", !confirmed.mailboxKey.isEmpty, confirmed.mailboxKey.count <= 128 else { continue }
                verified.append((confirmed.userId.uuidString.lowercased(), confirmed.mailboxKey, event.header.occurredAt))
            case EventTypes.favouriteAdded:
                let favourite = try event.payload(as: FavouriteChanged.self)
                let name = RequestText.trimmed(favourite.city.name)
                guard favourite.city.id > 0, !name.isEmpty else { continue }
                let trimmed = String(name.prefix(200))
                cityNames[favourite.city.id] = cityNames[favourite.city.id].map { min($0, trimmed) } ?? trimmed
            case EventTypes.userDeleted, EventTypes.userMerged:
                ended.append(event)
            default:
                continue
            }
        }
        if !surveyAccounts.isEmpty {
            try await connection.tracedQuery(
                """
                INSERT INTO survey_accounts (user_id, registered_at)
                SELECT u, t FROM unnest(\(surveyAccounts)::text[], \(registeredAt)::timestamptz[]) AS r(u, t) ON CONFLICT DO NOTHING
                """, logger: logger)
        }
        // After the accounts: an account's registration and verification may come in one batch.
        // In one order (by mailbox, then user) whatever the batch: two partitions' batches take the locks alike.
        for account in verified.sorted(by: { ($0.mailboxKey, $0.user) < ($1.mailboxKey, $1.user) }) {
            try await coupons.verified(user: account.user, mailboxKey: account.mailboxKey, at: account.at, on: connection, logger: logger)
        }
        if !cityNames.isEmpty {
            let rows = cityNames.sorted { $0.key < $1.key }
            let ids = rows.map(\.key), names = rows.map(\.value)
            try await connection.tracedQuery(
                """
                INSERT INTO city_names (city_id, name) SELECT c, n FROM unnest(\(ids)::bigint[], \(names)::text[]) AS t(c, n)
                ON CONFLICT (city_id) DO UPDATE SET name = LEAST(city_names.name, excluded.name)
                """, logger: logger)
        }
        // Last: an account registered or verified earlier in the same batch ends after it (issue 29).
        for event in ended {
            _ = try await lifecycle.apply(event, on: connection, logger: logger)
        }
    }
}
