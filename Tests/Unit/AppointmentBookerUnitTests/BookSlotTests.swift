import Foundation
import PlatformCore
import PlatformHTTP
import Testing

@testable import AppointmentBooker

/// The booking rules of `BookSlot` (B2, B3, U6) against memory storage: each refusal, the replay of a retried
/// request and the slot lost to another user, in milliseconds and with nothing running.
@Suite("appointment-booker: booking a slot (use case)")
struct BookSlotTests {
    /// Monday 2030-01-07 09:00 UTC; the partner receives 09:00-17:00 on Mondays in UTC, in 60-minute slots.
    static let monday = Date(timeIntervalSince1970: 1_894_006_800)
    static let now = monday.addingTimeInterval(-86_400)
    static let user = AuthenticatedUser(id: "user-1", role: .user, entitlements: [BookSlot.entitlement])

    static func partner(listed: Bool = true) throws -> Partner {
        let window = Availability.WeeklyWindow(
            weekday: 1, start: try #require(LocalTime(parsing: "09:00")), end: try #require(LocalTime(parsing: "17:00")))
        return Partner(
            id: UUID(), name: "Madame Sroy", description: "", contact: "", photoURL: nil, languages: ["th"], timeZone: "UTC",
            approved: true, feeStatus: .paid, promoted: false, listed: listed, availability: Availability(weekly: [window], exceptions: []))
    }

    static func useCase(_ partner: Partner, bookings: MemoryBookings = MemoryBookings(), horizonDays: Int = 60) -> BookSlot {
        BookSlot(
            partners: MemoryPartners(partners: [partner.id: partner]), bookings: bookings,
            choice: SlotChoice(slots: SlotCalculator(slotMinutes: 60), horizonDays: horizonDays))
    }

    static func refusal(_ work: () async throws -> Booking) async -> BookingRefusal? {
        do {
            _ = try await work()
            return nil
        } catch {
            return error as? BookingRefusal
        }
    }

    @Test("B2: a free slot is booked for the caller's account")
    func books() async throws {
        let partner = try Self.partner(), bookings = MemoryBookings()
        let booking = try await Self.useCase(partner, bookings: bookings)(
            Self.user, partner: partner.id, startsAt: Self.monday, idempotencyKey: nil, now: Self.now)
        #expect(booking.userId == AccountKey.of(Self.user.id) && booking.partnerId == partner.id)
        #expect(booking.endsAt.timeIntervalSince(booking.startsAt) == 3_600 && bookings.all.count == 1)
    }

    @Test("B3: a slot in the past, beyond the horizon or outside the partner's hours is refused, naming why")
    func slotRules() async throws {
        let partner = try Self.partner()
        let book = Self.useCase(partner, horizonDays: 30)
        let past = await Self.refusal {
            try await book(Self.user, partner: partner.id, startsAt: Self.monday, idempotencyKey: nil, now: Self.monday.addingTimeInterval(60))
        }
        #expect(past == .slotInPast)
        let far = await Self.refusal {
            try await book(
                Self.user, partner: partner.id, startsAt: Self.monday.addingTimeInterval(35 * 86_400), idempotencyKey: nil, now: Self.now)
        }
        #expect(far == .beyondHorizon)
        let evening = await Self.refusal {
            try await book(
                Self.user, partner: partner.id, startsAt: Self.monday.addingTimeInterval(10 * 3_600), idempotencyKey: nil, now: Self.now)
        }
        #expect(evening == .outsideAvailability)
        let offTheHour = await Self.refusal {
            try await book(Self.user, partner: partner.id, startsAt: Self.monday.addingTimeInterval(900), idempotencyKey: nil, now: Self.now)
        }
        #expect(offTheHour == .outsideAvailability)
    }

    @Test("B1, B2: an unknown partner is not found; an unlisted one is not bookable; a guest may not book")
    func partnerAndGuest() async throws {
        let unlisted = try Self.partner(listed: false)
        let book = Self.useCase(unlisted)
        #expect(
            await Self.refusal { try await book(Self.user, partner: UUID(), startsAt: Self.monday, idempotencyKey: nil, now: Self.now) }
                == .partnerNotFound)
        #expect(
            await Self.refusal { try await book(Self.user, partner: unlisted.id, startsAt: Self.monday, idempotencyKey: nil, now: Self.now) }
                == .partnerNotBookable)
        let guest = AuthenticatedUser(id: "guest-1", role: .guest, entitlements: [BookSlot.entitlement])
        #expect(
            await Self.refusal { try await book(guest, partner: unlisted.id, startsAt: Self.monday, idempotencyKey: nil, now: Self.now) }
                == .guestsNotAllowed)
    }

    @Test("B2: a second user's request for a booked slot loses it (409)")
    func slotTaken() async throws {
        let partner = try Self.partner()
        let book = Self.useCase(partner)
        _ = try await book(Self.user, partner: partner.id, startsAt: Self.monday, idempotencyKey: nil, now: Self.now)
        let other = AuthenticatedUser(id: "user-2", role: .user, entitlements: [BookSlot.entitlement])
        #expect(
            await Self.refusal { try await book(other, partner: partner.id, startsAt: Self.monday, idempotencyKey: nil, now: Self.now) } == .slotTaken
        )
    }

    @Test("B2: a retry with the same Idempotency-Key gets the first booking, even once the slot began; another slot under it is refused")
    func idempotency() async throws {
        let partner = try Self.partner(), bookings = MemoryBookings()
        let book = Self.useCase(partner, bookings: bookings)
        let first = try await book(Self.user, partner: partner.id, startsAt: Self.monday, idempotencyKey: "k1", now: Self.now)
        let retried = try await book(
            Self.user, partner: partner.id, startsAt: Self.monday, idempotencyKey: "k1", now: Self.monday.addingTimeInterval(60))
        #expect(retried == first && bookings.all.count == 1)
        let elsewhere = await Self.refusal {
            try await book(
                Self.user, partner: partner.id, startsAt: Self.monday.addingTimeInterval(3_600), idempotencyKey: "k1", now: Self.now)
        }
        #expect(elsewhere == .idempotencyKeyReused && bookings.all.count == 1)
    }

    @Test("U6: a banned account, or one whose entitlement was revoked or never claimed, may not book")
    func accountState() async throws {
        let partner = try Self.partner()
        let account = AccountKey.of(Self.user.id)
        for (state, expected): (AccountState, BookingRefusal) in [
            (.init(role: nil, banned: true, revoked: []), .accountBanned),
            (.init(role: nil, banned: false, revoked: [BookSlot.entitlement]), .entitlementRequired),
        ] {
            let book = Self.useCase(partner, bookings: MemoryBookings(states: [account: state]))
            #expect(
                await Self.refusal { try await book(Self.user, partner: partner.id, startsAt: Self.monday, idempotencyKey: nil, now: Self.now) }
                    == expected)
        }
        let unentitled = AuthenticatedUser(id: "user-3", role: .user, entitlements: [])
        #expect(
            await Self.refusal {
                try await Self.useCase(partner)(unentitled, partner: partner.id, startsAt: Self.monday, idempotencyKey: nil, now: Self.now)
            } == .entitlementRequired)
        let granted = MemoryBookings(states: [AccountKey.of("user-3"): .init(role: nil, banned: false, revoked: [], granted: [BookSlot.entitlement])])
        let booking = try await Self.useCase(partner, bookings: granted)(
            unentitled, partner: partner.id, startsAt: Self.monday, idempotencyKey: nil, now: Self.now)
        #expect(booking.partnerId == partner.id, "an entitlement granted by auth's event counts before the token names it")
    }
}

/// The live-booking limits (X3) through the use case.
@Suite("appointment-booker: live-booking limits (use case)")
struct BookSlotLimitTests {
    @Test("X3: past BOOKINGS_LIVE_PER_USER_PER_PARTNER with one partner, or BOOKINGS_LIVE_PER_USER in all, a booking is refused")
    func limits() async throws {
        let first = try BookSlotTests.partner(), second = try BookSlotTests.partner()
        let bookings = MemoryBookings(limits: LiveBookingLimits(perUser: 3, perUserPerPartner: 2))
        let book = BookSlot(
            partners: MemoryPartners(partners: [first.id: first, second.id: second]), bookings: bookings,
            choice: SlotChoice(slots: SlotCalculator(slotMinutes: 60), horizonDays: 60))
        func slot(_ hour: Int) -> Date { BookSlotTests.monday.addingTimeInterval(Double(hour) * 3_600) }
        for hour in 0..<2 {
            _ = try await book(BookSlotTests.user, partner: first.id, startsAt: slot(hour), idempotencyKey: nil, now: BookSlotTests.now)
        }
        let third = await BookSlotTests.refusal {
            try await book(BookSlotTests.user, partner: first.id, startsAt: slot(2), idempotencyKey: nil, now: BookSlotTests.now)
        }
        #expect(third == .tooManyLiveBookings(held: 2, withPartner: true, retryAfterSeconds: 3_600))
        _ = try await book(BookSlotTests.user, partner: second.id, startsAt: slot(0), idempotencyKey: nil, now: BookSlotTests.now)
        let fourth = await BookSlotTests.refusal {
            try await book(BookSlotTests.user, partner: second.id, startsAt: slot(1), idempotencyKey: nil, now: BookSlotTests.now)
        }
        #expect(fourth == .tooManyLiveBookings(held: 3, withPartner: false, retryAfterSeconds: 3_600))
        #expect(bookings.all.count == 3)
    }
}
