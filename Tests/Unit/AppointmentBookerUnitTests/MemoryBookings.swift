import Foundation
import Shared
import Synchronization

@testable import AppointmentBooker

/// Bookings kept in memory, with the rules Postgres keeps for `BookingStore`: one live booking per partner and
/// time (the exclusion constraint), one booking per user and `Idempotency-Key` (the unique index), the account
/// state read with the insert, and the user's live-booking limits (every booking here lies in the future).
final class MemoryBookings: BookingRepository {
    private let rows = Mutex<[Booking]>([])
    private let keys = Mutex<[String: UUID]>([:])
    let states: Mutex<[String: AccountStateStore.State]>
    let limits: LiveBookingLimits

    init(states: [String: AccountStateStore.State] = [:], limits: LiveBookingLimits = LiveBookingLimits()) {
        self.states = Mutex(states)
        self.limits = limits
    }

    var all: [Booking] { rows.withLock { $0 } }

    func made(by user: String, key: String) async throws -> Booking? {
        guard let id = keys.withLock({ $0["\(user)\u{1F}\(key)"] }) else { return nil }
        return rows.withLock { rows in rows.first { $0.id == id } }
    }

    func book(
        partner: UUID, user: String, startsAt: Date, endsAt: Date, idempotencyKey: String?,
        check: @Sendable (AccountStateStore.State) throws -> Void
    ) async throws -> BookOutcome {
        try check(states.withLock { $0[user] } ?? AccountStateStore.State(role: nil, banned: false, revoked: []))
        if let idempotencyKey, let first = try await made(by: user, key: idempotencyKey) {
            return first.isAskedAgain(partner: partner, startsAt: startsAt) ? .replayed(first) : .keyReused
        }
        return try rows.withLock { rows in
            let held = rows.filter { $0.userId == user && $0.status == "booked" }
            if let refusal = limits.refusal(
                all: held.count, withPartner: held.filter { $0.partnerId == partner }.count, soonestEndsIn: 3_600)
            {
                throw refusal
            }
            let overlaps = rows.contains {
                $0.partnerId == partner && $0.status == "booked" && $0.startsAt < endsAt && startsAt < $0.endsAt
            }
            if overlaps { return .taken }
            let booking = Booking(
                id: UUID(), partnerId: partner, userId: user, startsAt: startsAt, endsAt: endsAt, status: "booked", cancelledBy: nil,
                cancelReason: nil, createdAt: Date(), timeZone: "UTC")
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
