import Foundation
import Logging
import Metrics
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// Bookings (B2). A booking is inserted in one statement and the database's exclusion constraint
/// (`bookings_no_overlap`) is what refuses a second live booking over the same time of one partner, so
/// concurrent requests for a slot cannot both win. Every change writes its `appointment.*` event to the
/// outbox in the same transaction.
struct BookingStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    let topic: String
    var limits = LiveBookingLimits()

    static let columns = """
        b.id, b.partner_id, b.user_id, b.starts_at, b.ends_at, b.status, b.cancelled_by, b.cancel_reason, b.created_at, p.time_zone,
        b.booker_name, b.booker_contact
        """

    static func decode(_ rows: PostgresRowSequence) async throws -> [Booking] {
        var bookings: [Booking] = []
        for try await (id, partner, user, start, end, status, by, reason, created, zone, name, contact) in rows.decode(
            (UUID, UUID, String, Date, Date, String, String?, String?, Date, String, String?, String?).self)
        {
            bookings.append(
                Booking(
                    id: id, partnerId: partner, userId: user, startsAt: start, endsAt: end,
                    // The table's check allows these two; anything else is read as not live.
                    status: BookingStatus(rawValue: status) ?? .cancelled, cancelledBy: by.flatMap(BookingActor.init(rawValue:)),
                    cancelReason: reason, createdAt: created, timeZone: zone, booker: Booker(name: name, contact: contact)))
        }
        return bookings
    }

    /// The booking this user's `key` made, if any.
    func made(by user: String, key: String) async throws -> Booking? {
        try await client.withConnection { try await Self.made(by: user, key: key, on: $0, logger: logger) }
    }

    static func made(by user: String, key: String, on connection: PostgresConnection, logger: Logger) async throws -> Booking? {
        try await decode(
            connection.tracedQuery(
                """
                SELECT \(unescaped: columns) FROM bookings b JOIN partners p ON p.id = b.partner_id
                WHERE b.user_id = \(user) AND b.idempotency_key = \(key)
                """, logger: logger)
        ).first
    }

    /// How often a booking transaction that Postgres chose as a deadlock victim is tried again.
    static let deadlockAttempts = 3

    /// Books after `check` accepted the user's account state, read under a lock in the same transaction: a
    /// ban being applied waits for this booking and then cancels it, or this booking sees the ban. The
    /// partner's account is share-locked the same way (a partner banned meanwhile is not bookable). A
    /// deadlock victim is retried (`booking_deadlock_retries_total`); one that stays a victim is 503.
    func book(
        partner: UUID, user: String, startsAt: Date, endsAt: Date, idempotencyKey: String?, booker: Booker,
        check: @Sendable (AccountState) throws -> Void
    ) async throws -> BookOutcome {
        for attempt in 1...Self.deadlockAttempts {
            do {
                let booking = try await client.inTransaction(logger: logger) { connection -> Booking? in
                    try check(try await AccountStateStore.lockedState(of: user, on: connection, logger: logger))
                    guard try await AccountStateStore.lockedPartnerIsActive(AccountKey.of(partner), on: connection, logger: logger) else {
                        throw BookingRefusal.partnerNotBookable
                    }
                    try await LiveBookingLimits.serialize(user: user, on: connection, logger: logger)
                    // A retry whose key already made a booking (seen under the user's lock, so also one made by a
                    // request that was still running) is answered with it below, not counted against the caps.
                    var retried = false
                    if let idempotencyKey { retried = try await Self.made(by: user, key: idempotencyKey, on: connection, logger: logger) != nil }
                    if !retried { try await limits.check(user: user, partner: partner, on: connection, logger: logger) }
                    try await Self.serialize(partner: partner, on: connection, logger: logger)
                    let rows = try await connection.tracedQuery(
                        """
                        WITH made AS (
                            INSERT INTO bookings (id, partner_id, user_id, starts_at, ends_at, idempotency_key, booker_name, booker_contact)
                            VALUES (\(UUID()), \(partner), \(user), \(startsAt), \(endsAt), \(idempotencyKey), \(booker.name), \(booker.contact))
                            RETURNING *
                        )
                        SELECT \(unescaped: Self.columns) FROM made b JOIN partners p ON p.id = b.partner_id
                        """, logger: logger)
                    guard let booking = try await Self.decode(rows).first else { return nil }
                    try await publish(booking, type: EventTypes.appointmentBooked, by: .user, on: connection)
                    return booking
                }
                guard let booking else { return .taken }
                return .booked(booking)
            } catch let error as PSQLError where error.sqlState == .deadlockDetected {
                Self.deadlockRetries.increment()
                logger.warning("booking transaction chosen as a deadlock victim", metadata: ["attempt": "\(attempt)"])
                continue
            } catch let error as PSQLError where error.sqlState == .exclusionViolation || error.sqlState == .uniqueViolation {
                // A retry racing its first request with the same key loses on the slot or on the key: the first
                // request's booking is the answer.
                if let idempotencyKey, let first = try await made(by: user, key: idempotencyKey) {
                    return first.isAskedAgain(partner: partner, startsAt: startsAt) ? .replayed(first) : .keyReused
                }
                guard error.sqlState == .exclusionViolation else { throw error }
                return .taken
            }
        }
        throw BookingRefusal.busy
    }

    static let deadlockRetries = Counter(label: "booking_deadlock_retries_total")

    func find(_ id: UUID) async throws -> Booking? {
        try await Self.decode(
            client.tracedQuery(
                "SELECT \(unescaped: Self.columns) FROM bookings b JOIN partners p ON p.id = b.partner_id WHERE b.id = \(id)", logger: logger)
        ).first
    }

    /// The live bookings of a partner overlapping [from, to), as intervals (slot listing leaves them out).
    func liveIntervals(partner: UUID, from: Int, to: Int) async throws -> [SlotCalculator.Interval] {
        let rows = try await client.tracedQuery(
            """
            SELECT extract(epoch FROM starts_at)::bigint, extract(epoch FROM ends_at)::bigint FROM bookings
            WHERE partner_id = \(partner) AND status = 'booked'
                AND tstzrange(starts_at, ends_at) && tstzrange(to_timestamp(\(from)), to_timestamp(\(to)))
            """, logger: logger)
        var intervals: [SlotCalculator.Interval] = []
        for try await (start, end) in rows.decode((Int, Int).self) { intervals.append(.init(start: start, end: end)) }
        return intervals
    }

    enum Owner { case user(String), partner(UUID), anyone(partner: UUID?) }

    /// Soonest first; one more than `limit` tells there are more.
    func list(_ owner: Owner, limit: Int, offset: Int) async throws -> [Booking] {
        let (user, partner): (String?, UUID?) =
            switch owner {
            case .user(let user): (user, nil)
            case .partner(let partner): (nil, partner)
            case .anyone(let partner): (nil, partner)
            }
        return try await Self.decode(
            client.tracedQuery(
                """
                SELECT \(unescaped: Self.columns) FROM bookings b JOIN partners p ON p.id = b.partner_id
                WHERE (\(user)::text IS NULL OR b.user_id = \(user)) AND (\(partner)::uuid IS NULL OR b.partner_id = \(partner))
                ORDER BY b.starts_at, b.id LIMIT \(limit) OFFSET \(offset)
                """, logger: logger))
    }

    /// Cancels `booking` if it is still as it was read: live, with the same start (a move changes it). nil when it
    /// changed meanwhile; the caller reads it again and judges it again (`CancelBooking`).
    func cancel(_ booking: Booking, by actor: BookingActor, reason: String?) async throws -> Booking? {
        try await client.inTransaction(logger: logger) { connection -> Booking? in
            try await Self.cancelLive(
                id: booking.id, startingAt: booking.startsAt, by: actor, reason: reason, topic: topic, on: connection, logger: logger
            ).first
        }
    }

    /// Cancels every future live booking of `user` (a ban), as the booking's user or its partner, publishing
    /// each cancellation; how many.
    static func cancelFuture(of user: String, reason: String, topic: String, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        try await cancelLive(futureOf: user, by: .system, reason: reason, topic: topic, on: connection, logger: logger).count
    }

    /// Cancels the live booking `id` (if it still starts at `start`, when given), or the future live bookings of
    /// `futureOf`, and publishes each cancellation.
    private static func cancelLive(
        id: UUID? = nil, startingAt start: Date? = nil, futureOf user: String? = nil, by actor: BookingActor, reason: String?, topic: String,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> [Booking] {
        guard id != nil || user != nil else { return [] }
        let rows = try await connection.tracedQuery(
            """
            WITH cancelled AS (
                UPDATE bookings SET status = 'cancelled', cancelled_by = \(actor.rawValue), cancel_reason = \(reason), updated_at = now()
                WHERE status = 'booked' AND (\(id)::uuid IS NULL OR id = \(id)) AND (\(start)::timestamptz IS NULL OR abs(extract(epoch FROM starts_at - \(start)::timestamptz)) < 0.001)
                    AND (\(user)::text IS NULL OR ((user_id = \(user) OR partner_id::text = \(user)) AND starts_at > now()))
                RETURNING *
            )
            SELECT \(unescaped: columns) FROM cancelled b JOIN partners p ON p.id = b.partner_id
            """, logger: logger)
        let cancelled = try await decode(rows)
        for booking in cancelled {
            try await publish(booking, type: EventTypes.appointmentCancelled, by: actor, topic: topic, on: connection, logger: logger)
        }
        return cancelled
    }

    /// Moves a live booking not yet begun to another interval. The exclusion constraint refuses an interval taken by
    /// another booking (`.taken`); a deadlock victim is `BookingRefusal.busy`.
    func move(_ id: UUID, startsAt: Date, endsAt: Date, by actor: BookingActor) async throws -> MoveOutcome {
        do {
            return try await client.inTransaction(logger: logger) { connection -> MoveOutcome in
                let partner = try await connection.tracedQuery("SELECT partner_id FROM bookings WHERE id = \(id)", logger: logger)
                for try await partner in partner.decode(UUID.self) { try await Self.serialize(partner: partner, on: connection, logger: logger) }
                let rows = try await connection.tracedQuery(
                    """
                    WITH moved AS (
                        UPDATE bookings SET starts_at = \(startsAt), ends_at = \(endsAt), updated_at = now(), reminder_queued_at = NULL
                        WHERE id = \(id) AND status = 'booked' AND starts_at > now() RETURNING *
                    )
                    SELECT \(unescaped: Self.columns) FROM moved b JOIN partners p ON p.id = b.partner_id
                    """, logger: logger)
                guard let booking = try await Self.decode(rows).first else { return .changed }
                try await publish(booking, type: EventTypes.appointmentChanged, by: actor, on: connection)
                return .moved(booking)
            }
        } catch let error as PSQLError where error.sqlState == .exclusionViolation {
            return .taken
        } catch let error as PSQLError where error.sqlState == .deadlockDetected {
            throw BookingRefusal.busy
        }
    }

    /// Makes the partner's booking writes wait for each other (a transaction advisory lock on the partner).
    /// The exclusion constraint alone is what forbids overlaps, but two transactions inserting overlapping rows
    /// at once each wait for the other while checking it, and Postgres breaks that deadlock only after a second
    /// (the bench found it under load). Taken in turn, the later insert meets a committed row and fails at once.
    static func serialize(partner: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.tracedQuery("SELECT pg_advisory_xact_lock(hashtextextended(\(partner.uuidString.lowercased()), 0))", logger: logger)
    }

    func publish(_ booking: Booking, type: EventType, by actor: BookingActor, on connection: PostgresConnection) async throws {
        try await Self.publish(booking, type: type, by: actor, topic: topic, on: connection, logger: logger)
    }

    static func publish(
        _ booking: Booking, type: EventType, by actor: BookingActor, topic: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let payload = AppointmentChanged(
            bookingId: booking.id, partnerId: booking.partnerId, userId: booking.userId, startsAt: booking.startsAt,
            endsAt: booking.endsAt, status: booking.status, changedBy: actor, reason: booking.cancelReason)
        try await Outbox.enqueue(
            EventEnvelope(type: type, producer: "appointment-booker", key: AccountKey.of(booking.partnerId), payload: payload),
            toTopicNamed: topic, on: connection, logger: logger)
    }
}
