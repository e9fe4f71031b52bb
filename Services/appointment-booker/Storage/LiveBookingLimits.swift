import Foundation
import Logging
import PlatformPostgres
import PostgresNIO

/// How many bookings one user may hold that have not ended yet: in all (`BOOKINGS_LIVE_PER_USER`) and with one
/// partner (`BOOKINGS_LIVE_PER_USER_PER_PARTNER`), so one account cannot fill the calendars of every fortune
/// teller, nor one teller's week. Past either, `BookingRefusal.tooManyLiveBookings` (429 `too_many_bookings`).
struct LiveBookingLimits: Sendable {
    var perUser = 10
    var perUserPerPartner = 3

    /// Makes one user's bookings wait for each other (a transaction advisory lock), so they are counted one after
    /// another; taken before the partner's lock, always in that order.
    static func serialize(user: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery("SELECT pg_advisory_xact_lock(hashtextextended(\("live-bookings:" + user), 0))", logger: logger)
    }

    /// The refusal for a user holding `all` live bookings, `withPartner` of them with the partner asked; nil when
    /// one more is allowed.
    func refusal(all: Int, withPartner: Int, soonestEndsIn: Double) -> BookingRefusal? {
        if all >= perUser { return .tooManyLiveBookings(held: all, withPartner: false, retryAfterSeconds: soonestEndsIn) }
        if withPartner >= perUserPerPartner {
            return .tooManyLiveBookings(held: withPartner, withPartner: true, retryAfterSeconds: soonestEndsIn)
        }
        return nil
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
            if let refusal = refusal(all: all, withPartner: withPartner, soonestEndsIn: soonestEndsIn) { throw refusal }
        }
    }
}
