import Foundation
import Logging
import PostgresNIO
import Shared

/// How many bookings one user may hold that have not ended yet: in all (`BOOKINGS_LIVE_PER_USER`) and with one
/// partner (`BOOKINGS_LIVE_PER_USER_PER_PARTNER`), so one account cannot fill the calendars of every fortune
/// teller, nor one teller's week. Past either, 429 `too_many_bookings`.
struct LiveBookingLimits: Sendable {
    var perUser = 10
    var perUserPerPartner = 3

    /// Makes one user's bookings wait for each other (a transaction advisory lock), so they are counted one after
    /// another; taken before the partner's lock, always in that order.
    static func serialize(user: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery("SELECT pg_advisory_xact_lock(hashtextextended(\("live-bookings:" + user), 0))", logger: logger)
    }

    /// Counts inside the booking's transaction, after `serialize(user:)`.
    func check(user: String, partner: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        let rows = try await connection.tracedQuery(
            """
            SELECT count(*)::bigint, count(*) FILTER (WHERE partner_id = \(partner))::bigint,
                   coalesce(extract(epoch FROM min(ends_at) - now()), 0)::float8
            FROM bookings
            WHERE user_id = \(user) AND status = 'booked' AND ends_at > now()
            """, logger: logger)
        for try await (all, withPartner, soonestEndsIn) in rows.decode((Int, Int, Double).self) {
            // The soonest of them to end frees a place then (a cancellation sooner).
            if all >= perUser {
                throw APIError.tooManyRequests(
                    code: "too_many_bookings",
                    message: "this account already holds \(all) bookings that have not ended; cancel one or wait until one has passed",
                    retryAfterSeconds: soonestEndsIn)
            }
            if withPartner >= perUserPerPartner {
                throw APIError.tooManyRequests(
                    code: "too_many_bookings", message: "this account already holds \(withPartner) bookings with this partner that have not ended",
                    retryAfterSeconds: soonestEndsIn)
            }
        }
    }
}
