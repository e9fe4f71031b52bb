import Foundation
import Logging
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// What other services' events say that analytics keeps as facts, not counts: auth's survey accounts (who
/// may take the hotel survey, N4) and city names from weather's favourites (location reports, N2). Upserts,
/// so applying an event again changes nothing; a city keeps the least name it was given, whatever the order.
/// Account deletions and merges go to `AnalyticsAccountsOwner`, idempotent as well.
enum FactsStore {
    static func apply(
        _ facts: SurveyAccountFacts, coupons: SurveyCoupons, lifecycle: AccountLifecycleEvents, on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        if !facts.registered.isEmpty {
            let users = facts.registered.map(\.user), registeredAt = facts.registered.map(\.at)
            try await connection.tracedQuery(
                """
                INSERT INTO survey_accounts (user_id, registered_at)
                SELECT u, t FROM unnest(\(users)::text[], \(registeredAt)::timestamptz[]) AS r(u, t) ON CONFLICT DO NOTHING
                """, logger: logger)
        }
        // After the accounts: an account's registration and verification may come in one batch.
        for account in facts.verified {
            try await coupons.verified(user: account.user, mailboxKey: account.mailboxKey, at: account.at, on: connection, logger: logger)
        }
        // Last: an account registered or verified earlier in the same batch ends after it (U9).
        for event in facts.ended {
            _ = try await lifecycle.apply(event, on: connection, logger: logger)
        }
    }

    static func apply(_ cities: CityNames, on connection: PostgresConnection, logger: Logger) async throws {
        guard !cities.names.isEmpty else { return }
        let rows = cities.names.sorted { $0.key < $1.key }
        let ids = rows.map(\.key), names = rows.map(\.value)
        try await connection.tracedQuery(
            """
            INSERT INTO city_names (city_id, name) SELECT c, n FROM unnest(\(ids)::bigint[], \(names)::text[]) AS t(c, n)
            ON CONFLICT (city_id) DO UPDATE SET name = LEAST(city_names.name, excluded.name)
            """, logger: logger)
    }
}
