import Foundation
import PlatformEvents
import Synchronization

@testable import AppointmentBooker

/// Bookings kept in memory, with the rules Postgres keeps for `BookingStore`: one live booking per partner and
/// time (the exclusion constraint), one booking per user and `Idempotency-Key` (the unique index), the account
/// state read with the insert, and the user's live-booking limits (every booking here lies in the future).
final class MemoryBookings: BookingRepository {
    private let rows = Mutex<[Booking]>([])
    private let keys = Mutex<[String: UUID]>([:])
    let states: Mutex<[String: AccountState]>
    /// Runs before each cancelling or moving write, with the booking's id: what another request changes in between.
    let beforeWrite = Mutex<(@Sendable (UUID) -> Void)?>(nil)
    /// The database's `now()`, for a move's "not yet begun".
    let clock: @Sendable () -> Date
    let limits: LiveBookingLimits

    init(
        states: [String: AccountState] = [:], limits: LiveBookingLimits = LiveBookingLimits(),
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.states = Mutex(states)
        self.limits = limits
        self.clock = clock
    }

    var all: [Booking] { rows.withLock { $0 } }

    func made(by user: String, key: String) async throws -> Booking? {
        guard let id = keys.withLock({ $0["\(user)\u{1F}\(key)"] }) else { return nil }
        return rows.withLock { rows in rows.first { $0.id == id } }
    }

    func book(
        partner: UUID, user: String, startsAt: Date, endsAt: Date, idempotencyKey: String?, booker: Booker,
        check: @Sendable (AccountState) throws -> Void
    ) async throws -> BookOutcome {
        try check(states.withLock { $0[user] } ?? AccountState.unknown)
        if let idempotencyKey, let first = try await made(by: user, key: idempotencyKey) {
            return first.isAskedAgain(partner: partner, startsAt: startsAt) ? .replayed(first) : .keyReused
        }
        return try rows.withLock { rows in
            let held = rows.filter { $0.userId == user && $0.status == .booked }
            if let refusal = limits.refusal(
                all: held.count, withPartner: held.filter { $0.partnerId == partner }.count, soonestEndsIn: 3_600)
            {
                throw refusal
            }
            let overlaps = rows.contains {
                $0.partnerId == partner && $0.status == .booked && $0.startsAt < endsAt && startsAt < $0.endsAt
            }
            if overlaps { return .taken }
            let booking = Booking(
                id: UUID(), partnerId: partner, userId: user, startsAt: startsAt, endsAt: endsAt, status: .booked, cancelledBy: nil,
                cancelReason: nil, createdAt: Date(), timeZone: "UTC", booker: booker)
            rows.append(booking)
            if let idempotencyKey { keys.withLock { $0["\(user)\u{1F}\(idempotencyKey)"] = booking.id } }
            return .booked(booking)
        }
    }
}

/// Partners kept in memory.
struct MemoryPartners: PartnerDirectory {
    var partners: [UUID: Partner]

    func find(_ id: UUID) async throws -> Partner? { partners[id] }
}

extension MemoryBookings: BookingCancellation {
    func find(_ id: UUID) async throws -> Booking? { rows.withLock { rows in rows.first { $0.id == id } } }

    func cancel(_ booking: Booking, by actor: BookingActor, reason: String?) async throws -> Booking? {
        beforeWrite.withLock { $0 }?(booking.id)
        return rows.withLock { rows in
            guard let index = rows.firstIndex(where: { $0.id == booking.id && $0.status == .booked && $0.startsAt == booking.startsAt })
            else { return nil }
            rows[index].status = .cancelled
            (rows[index].cancelledBy, rows[index].cancelReason) = (actor, reason)
            return rows[index]
        }
    }

    /// Another request's change to the row between a read and the write that follows it.
    func move(_ id: UUID, by seconds: TimeInterval) {
        rows.withLock { rows in
            guard let index = rows.firstIndex(where: { $0.id == id }) else { return }
            rows[index].startsAt.addTimeInterval(seconds)
            rows[index].endsAt.addTimeInterval(seconds)
        }
    }

    func insert(_ booking: Booking) { rows.withLock { $0.append(booking) } }

    /// Another request's cancellation between a read and the write that follows it.
    func markCancelled(_ id: UUID) {
        rows.withLock { rows in
            guard let index = rows.firstIndex(where: { $0.id == id }) else { return }
            rows[index].status = .cancelled
        }
    }
}

extension MemoryBookings: BookingMoves {
    /// As the store: only a live booking not yet begun moves, and not onto another live booking of its partner.
    func move(_ id: UUID, startsAt: Date, endsAt: Date, by actor: BookingActor) async throws -> MoveOutcome {
        beforeWrite.withLock { $0 }?(id)
        return rows.withLock { rows in
            guard let index = rows.firstIndex(where: { $0.id == id && $0.status == .booked && $0.startsAt > clock() }) else { return .changed }
            let row = rows[index]
            let overlaps = rows.contains {
                $0.id != id && $0.partnerId == row.partnerId && $0.status == .booked && $0.startsAt < endsAt && startsAt < $0.endsAt
            }
            if overlaps { return .taken }
            (rows[index].startsAt, rows[index].endsAt) = (startsAt, endsAt)
            return .moved(rows[index])
        }
    }
}
