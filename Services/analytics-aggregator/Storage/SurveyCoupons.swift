import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// When the hotel survey's $50 coupon is issued (N4): only to an account whose email address auth has
/// verified (a mailed code), and once per mailbox in `SURVEY_COUPON_WINDOW_DAYS`, so made-up addresses and
/// `+tag` aliases of one inbox earn nothing. An overall rating given before the address is verified keeps its
/// coupon waiting; `user.email-verified` issues it.
struct SurveyCoupons: Sendable {
    var windowDays: Int = 365

    /// The lock one survey taker's submissions and verification take turns on.
    static func lockTaker(_ user: String, on connection: PostgresConnection, logger: Logger) async throws {
        _ = try await connection.tracedQuery("SELECT pg_advisory_xact_lock(hashtextextended('survey/' || \(user), 0))", logger: logger)
    }

    /// What the user's overall rating earns now, inside the caller's transaction. An issued coupon's mailbox is
    /// recorded; the caller stores the code (unique: on a clash its transaction fails and is tried again).
    func decide(for user: String, on connection: PostgresConnection, logger: Logger) async throws -> (CouponStatus, String?) {
        let account = try await connection.tracedQuery(
            "SELECT mailbox_key FROM survey_accounts WHERE user_id = \(user) AND verified_at IS NOT NULL", logger: logger
        ).decode(String?.self).collectAll()
        guard let found = account.first, let mailbox = found else { return (.awaitingVerification, nil) }
        // Accounts of one mailbox take turns, so two verified at once cannot both be the first.
        try await connection.tracedQuery(
            "SELECT pg_advisory_xact_lock(hashtextextended(\("survey-coupon:" + mailbox), 0))", logger: logger)
        let earlier =
            try await connection.tracedQuery(
                """
                SELECT count(*)::bigint FROM survey_coupon_mailboxes
                WHERE mailbox_key = \(mailbox) AND user_id <> \(user) AND issued_at > now() - make_interval(days => \(windowDays)::int)
                """, logger: logger
            ).decode(Int.self).collectAll().first ?? 0
        guard earlier == 0 else { return (.mailboxAlreadyRewarded, nil) }
        try await connection.tracedQuery(
            "INSERT INTO survey_coupon_mailboxes (user_id, mailbox_key) VALUES (\(user), \(mailbox)) ON CONFLICT (user_id) DO NOTHING",
            logger: logger)
        return (.issued, CouponCode.make())
    }

    /// `user.email-verified` for a survey account: records it, then issues the coupon its overall rating waits for.
    /// Under the survey taker's lock (`SurveyStore`): a rating submitted meanwhile either sees the account verified or
    /// is stored before, and then this finds it waiting.
    func verified(user: String, mailboxKey: String, at time: Date, on connection: PostgresConnection, logger: Logger) async throws {
        try await Self.lockTaker(user, on: connection, logger: logger)
        try await connection.tracedQuery(
            """
            UPDATE survey_accounts SET verified_at = \(time), mailbox_key = \(mailboxKey)
            WHERE user_id = \(user) AND verified_at IS NULL
            """, logger: logger)
        let waiting = try await connection.tracedQuery(
            "SELECT 1 FROM survey_overall WHERE user_id = \(user) AND coupon_status = 'awaiting_verification' FOR UPDATE", logger: logger
        ).decode(Int.self).collectAll()
        guard !waiting.isEmpty else { return }
        let (status, code) = try await decide(for: user, on: connection, logger: logger)
        try await connection.tracedQuery(
            "UPDATE survey_overall SET coupon_status = \(status.rawValue), coupon_code = \(code) WHERE user_id = \(user)", logger: logger)
    }
}
