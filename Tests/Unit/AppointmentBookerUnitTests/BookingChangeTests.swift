import Foundation
import PlatformCore
import Testing

@testable import AppointmentBooker

extension MemoryBookings: BookingLookup {}

/// Who may move or cancel a booking (B2, B3): `BookingChangeRules` on its own, and `AuthorizeBookingChange` over
/// bookings and account states in memory.
@Suite("appointment-booker: who changes a booking")
struct BookingChangeTests {
    static let partnerId = UUID()
    static let partner = AuthenticatedUser(id: partnerId.uuidString, role: .partner, entitlements: [])
    static let user = AuthenticatedUser(id: "user-1", role: .user, entitlements: [])
    static let stranger = AuthenticatedUser(id: "user-2", role: .user, entitlements: [])
    static let otherPartner = AuthenticatedUser(id: UUID().uuidString, role: .partner, entitlements: [])
    static let admin = AuthenticatedUser(id: "admin-1", role: .admin, entitlements: [])

    static let booking = Booking(
        id: UUID(), partnerId: partnerId, userId: AccountKey.of("user-1"), startsAt: BookSlotTests.monday,
        endsAt: BookSlotTests.monday.addingTimeInterval(3_600), status: .booked, cancelledBy: nil, cancelReason: nil,
        createdAt: BookSlotTests.now, timeZone: "UTC")

    static func authorize(states: [String: AccountState] = [:]) -> AuthorizeBookingChange {
        let bookings = MemoryBookings()
        bookings.insert(booking)
        return AuthorizeBookingChange(bookings: bookings, accounts: CheckAccount(states: CheckAccountTests.MemoryAccountStates(states: states)))
    }

    static func refusal(_ work: () async throws -> Void) async -> (any Error)? {
        do {
            try await work()
            return nil
        } catch {
            return error
        }
    }

    @Test("B2: its user, its partner and an admin cancel it; anyone else is not told it exists")
    func cancelByWhoSeesIt() throws {
        #expect(try BookingChangeRules.actor(Self.user, on: Self.booking, for: .cancel) == .user)
        #expect(try BookingChangeRules.actor(Self.partner, on: Self.booking, for: .cancel) == .partner)
        #expect(try BookingChangeRules.actor(Self.admin, on: Self.booking, for: .cancel) == .admin)
        #expect(throws: BookingChangeRules.Refusal.notVisible) { try BookingChangeRules.actor(Self.stranger, on: Self.booking, for: .cancel) }
        #expect(throws: BookingChangeRules.Refusal.notVisible) {
            try BookingChangeRules.actor(Self.otherPartner, on: Self.booking, for: .cancel)
        }
    }

    @Test("B2, B3: only its partner or an admin moves it; its user sees it but may not")
    func moveByPartnerOrAdmin() throws {
        #expect(try BookingChangeRules.actor(Self.partner, on: Self.booking, for: .move) == .partner)
        #expect(try BookingChangeRules.actor(Self.admin, on: Self.booking, for: .move) == .admin)
        #expect(throws: BookingChangeRules.Refusal.notAllowed) { try BookingChangeRules.actor(Self.user, on: Self.booking, for: .move) }
        #expect(throws: BookingChangeRules.Refusal.notVisible) { try BookingChangeRules.actor(Self.stranger, on: Self.booking, for: .move) }
    }

    @Test("B2: a booking that does not exist is refused like one the caller does not see")
    func missingBookingNotVisible() async {
        let error = await Self.refusal { _ = try await Self.authorize()(UUID(), by: Self.admin, for: .cancel) }
        #expect(error as? BookingChangeRules.Refusal == .notVisible)
    }

    @Test("B2, U5: a banned partner, or one no longer a partner, changes none of its bookings")
    func partnerMustBeActive() async throws {
        let account = AccountKey.of(Self.partner.id)
        let found = try await Self.authorize()(Self.booking.id, by: Self.partner, for: .move)
        #expect(found.booking == Self.booking && found.actor == .partner)
        let banned = await Self.refusal {
            _ = try await Self.authorize(states: [account: .init(role: .partner, banned: true, revoked: [])])(
                Self.booking.id, by: Self.partner, for: .cancel)
        }
        #expect(banned as? AccountRefusal == .accountBanned)
        let demoted = await Self.refusal {
            _ = try await Self.authorize(states: [account: .init(role: .user, banned: false, revoked: [])])(
                Self.booking.id, by: Self.partner, for: .move)
        }
        #expect(demoted as? AccountRefusal == .notAPartner)
    }

    @Test("B2: only a partner's account state is asked; the user and the admin are judged by the booking rules")
    func onlyPartnerAccountAsked() async throws {
        // States that would refuse a partner acting: they do not refuse the user or the admin.
        let states = [
            AccountKey.of(Self.user.id): AccountState(role: .user, banned: true, revoked: []),
            AccountKey.of(Self.admin.id): AccountState(role: .user, banned: true, revoked: []),
        ]
        #expect(try await Self.authorize(states: states)(Self.booking.id, by: Self.user, for: .cancel).actor == .user)
        #expect(try await Self.authorize(states: states)(Self.booking.id, by: Self.admin, for: .move).actor == .admin)
        let error = await Self.refusal { _ = try await Self.authorize(states: states)(Self.booking.id, by: Self.user, for: .move) }
        #expect(error as? BookingChangeRules.Refusal == .notAllowed)
    }
}
