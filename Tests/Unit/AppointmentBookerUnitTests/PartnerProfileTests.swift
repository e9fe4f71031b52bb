import Foundation
import PlatformCore
import Testing

@testable import AppointmentBooker

/// Adding and editing partners' profiles, availability and ads (B1, B6) against memory storage: a profile only for a
/// partner account and once, a partner never sets its own approval or fee, an admin's override is marked so, and an ad
/// only in a window `AdWindow` allows.
@Suite("appointment-booker: partners' profiles and ads (use cases)")
struct PartnerProfileTests {
    static let now = PartnerPaymentTests.now

    static func refusal<T>(_ work: () async throws -> T) async -> PartnerRefusal? {
        do {
            _ = try await work()
            return nil
        } catch {
            return error as? PartnerRefusal
        }
    }

    /// A partner account with its profile, not yet approved.
    static func partner() async throws -> (MemoryPartnerProfiles, UUID) {
        let id = UUID()
        let profiles = MemoryPartnerProfiles(roles: [id: .partner], clock: { now })
        _ = try await AddPartner(profiles: profiles, accounts: profiles)(PartnerApplicationTests.profile(id))
        return (profiles, id)
    }

    /// Why adding `id`'s profile is refused, if it is; `accounts` as auth's events left them (the store's by default).
    static func add(_ id: UUID, to profiles: MemoryPartnerProfiles, accounts: (any AccountStates)? = nil) async -> PartnerRefusal? {
        await refusal { try await AddPartner(profiles: profiles, accounts: accounts ?? profiles)(PartnerApplicationTests.profile(id)) }
    }

    @Test("B1: an admin adds a profile only for an account auth made a partner, and once")
    func profileOnlyForPartnerAccountsOnce() async throws {
        let user = UUID()
        let profiles = MemoryPartnerProfiles(roles: [user: .user])
        #expect(await Self.add(user, to: profiles) == .notAPartner)
        #expect(await Self.add(UUID(), to: profiles) == .notAPartner, "an account no event named")
        #expect(profiles.createsTried == 0, "refused as read, before any insert")
        let (added, id) = try await Self.partner()
        let partner = try #require(try await added.find(id))
        #expect(!partner.approved && partner.feeStatus == .unpaid && !partner.listed && partner.name == "Madame Sroy")
        #expect(await Self.add(id, to: added) == .profileExists)
    }

    @Test("B1: a partner role taken away between the read and the insert is judged again by the insert, and refused")
    func roleReadAgainByTheInsert() async throws {
        let id = UUID()
        let asRead = CheckAccountTests.MemoryAccountStates(states: [
            AccountKey.of(id): AccountState(role: .partner, banned: false, revoked: [])
        ])
        let profiles = MemoryPartnerProfiles(roles: [id: .user])
        #expect(await Self.add(id, to: profiles, accounts: asRead) == .notAPartner)
        #expect(profiles.createsTried == 1)
        #expect(try await profiles.find(id) == nil)
    }

    @Test("B1, B6: an admin approves and overrides the fee, marked as the admin's; the partner is then listed")
    func adminFeeOverride() async throws {
        let (profiles, id) = try await Self.partner()
        let edited = try await EditPartner(profiles: profiles)(id, ProfileChanges(approved: true, feeStatus: .paid), by: .admin)
        #expect(edited.approved && edited.feeStatus == .paid && edited.feeMarkedBy == "admin" && edited.listed)
        let unpaid = try await EditPartner(profiles: profiles)(id, ProfileChanges(feeStatus: .unpaid), by: .admin)
        #expect(unpaid.feeStatus == .unpaid && unpaid.feeMarkedBy == nil && !unpaid.listed)
    }

    @Test("B1: a partner edits its own profile's fields but never its approval or its fee")
    func partnerNeverSetsApprovalOrFee() async throws {
        let (profiles, id) = try await Self.partner()
        let changes = ProfileChanges(name: "Madame Sroy II", approved: true, feeStatus: .paid)
        let edited = try await EditPartner(profiles: profiles)(id, changes, by: .partner)
        #expect(edited.name == "Madame Sroy II" && !edited.approved && edited.feeStatus == .unpaid && !edited.listed)
    }

    @Test("B1, B3: an unknown partner is not edited, and gets no availability")
    func unknownPartner() async throws {
        let profiles = MemoryPartnerProfiles()
        await #expect(throws: PartnerRefusal.partnerNotFound) {
            try await EditPartner(profiles: profiles)(UUID(), ProfileChanges(name: "x"), by: .admin)
        }
        let none = Availability(weekly: [], exceptions: [])
        let replace = ReplaceAvailability(profiles: profiles, accounts: CheckAccount(states: profiles))
        let admin = AuthenticatedUser(id: "admin-1", role: .admin, entitlements: [])
        await #expect(throws: PartnerRefusal.partnerNotFound) { try await replace(try await replace.authorize(admin, for: UUID()), with: none) }
    }

    @Test("B3: the availability is replaced as a whole")
    func availabilityReplaced() async throws {
        let (profiles, id) = try await Self.partner()
        let window = Availability.WeeklyWindow(
            weekday: 1, start: try #require(LocalTime(parsing: "09:00")), end: try #require(LocalTime(parsing: "12:00")))
        let replace = ReplaceAvailability(profiles: profiles, accounts: CheckAccount(states: profiles))
        let itself = AuthenticatedUser(id: id.uuidString.lowercased(), role: .partner, entitlements: [])
        try await replace(try await replace.authorize(itself, for: id), with: Availability(weekly: [window], exceptions: []))
        #expect(try await profiles.find(id)?.availability == Availability(weekly: [window], exceptions: []))
    }

    @Test("B3, U5: only an admin or the partner itself, while still a partner, replaces an availability")
    func whoReplacesAvailability() async throws {
        let (profiles, id) = try await Self.partner()
        let other = UUID()
        let replace = ReplaceAvailability(profiles: profiles, accounts: CheckAccount(states: profiles))
        let itself = AuthenticatedUser(id: id.uuidString, role: .partner, entitlements: [])
        let stranger = AuthenticatedUser(id: other.uuidString, role: .partner, entitlements: [])
        let user = AuthenticatedUser(id: id.uuidString, role: .user, entitlements: [])
        _ = try await replace.authorize(itself, for: id)
        _ = try await replace.authorize(AuthenticatedUser(id: "admin-1", role: .admin, entitlements: []), for: id)
        #expect(await Self.accountRefusal { _ = try await replace.authorize(stranger, for: id) } == .notTheProfilesOwner)
        #expect(await Self.accountRefusal { _ = try await replace.authorize(user, for: id) } == .notTheProfilesOwner)
        // auth's events made the account a user again: its still-valid partner token no longer acts.
        let demoted = MemoryPartnerProfiles(roles: [id: .user])
        let stale = ReplaceAvailability(profiles: demoted, accounts: CheckAccount(states: demoted))
        #expect(await Self.accountRefusal { _ = try await stale.authorize(itself, for: id) } == .notAPartner)
    }

    static func accountRefusal(_ work: () async throws -> Void) async -> AccountRefusal? {
        do {
            try await work()
            return nil
        } catch {
            return error as? AccountRefusal
        }
    }

    @Test("B6: an ad is added unpaid within an allowed window; a window AdWindow refuses names its fields and adds nothing")
    func adWindow() async throws {
        let (profiles, id) = try await Self.partner()
        let ad = try await AddAd(ads: profiles)(to: id, startsAt: Self.now, endsAt: Self.now.addingTimeInterval(86_400))
        #expect(ad.paymentStatus == .unpaid && !ad.active && ad.markedBy == nil && ad.partnerId == id)
        let backwards = await Self.refusal { try await AddAd(ads: profiles)(to: id, startsAt: Self.now, endsAt: Self.now) }
        #expect(backwards == .adWindow(["endsAt": "must be after startsAt"]))
        let long = await Self.refusal {
            try await AddAd(ads: profiles)(to: id, startsAt: Self.now, endsAt: Self.now.addingTimeInterval(400 * 86_400))
        }
        #expect(long == .adWindow(["endsAt": "an ad runs a year at most"]))
        let unknown = await Self.refusal {
            try await AddAd(ads: profiles)(to: UUID(), startsAt: Self.now, endsAt: Self.now.addingTimeInterval(60))
        }
        #expect(unknown == .partnerNotFound)
        #expect(profiles.ads.count == 1)
    }

    @Test("B6: an admin's ad payment is an override marked as the admin's; another partner's ad is not found")
    func adminAdOverride() async throws {
        let (profiles, id) = try await Self.partner()
        let ad = try await AddAd(ads: profiles)(to: id, startsAt: Self.now.addingTimeInterval(-60), endsAt: Self.now.addingTimeInterval(3_600))
        let paid = try await MarkAdPayment(ads: profiles)(ad.id, of: id, as: .paid)
        #expect(paid.paymentStatus == .paid && paid.markedBy == "admin" && paid.active)
        let unpaid = try await MarkAdPayment(ads: profiles)(ad.id, of: id, as: .unpaid)
        #expect(unpaid.markedBy == nil && !unpaid.active)
        await #expect(throws: PartnerRefusal.adNotFound) { try await MarkAdPayment(ads: profiles)(ad.id, of: UUID(), as: .paid) }
    }
}
