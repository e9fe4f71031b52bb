import Foundation
import PlatformCore
import Testing

@testable import AppointmentBooker

/// What auth's events said about an account outweighs its token (U5, U6): `CheckAccount` over memory states.
@Suite("appointment-booker: account checks (use case)")
struct CheckAccountTests {
    struct MemoryAccountStates: AccountStates {
        let states: [String: AccountState]
        func state(of account: String) async throws -> AccountState { states[account] ?? .unknown }
    }

    static let partner = AuthenticatedUser(id: "partner-1", role: .partner, entitlements: [])
    static let tarotBuyer = AuthenticatedUser(id: "user-1", role: .user, entitlements: ["tarot", ContactDisclosure.entitlement])

    static func check(_ states: [String: AccountState] = [:]) -> CheckAccount {
        CheckAccount(states: MemoryAccountStates(states: states))
    }

    static func refusal(_ work: () async throws -> Void) async -> AccountRefusal? {
        do {
            try await work()
            return nil
        } catch {
            return error as? AccountRefusal
        }
    }

    @Test("U5: a partner token acts until the account is banned or given another role")
    func activePartner() async {
        let account = AccountKey.of(Self.partner.id)
        #expect(await Self.refusal { try await Self.check().activePartner(Self.partner) } == nil)
        #expect(
            await Self.refusal { try await Self.check([account: .init(role: .partner, banned: false, revoked: [])]).activePartner(Self.partner) }
                == nil)
        #expect(
            await Self.refusal { try await Self.check([account: .init(role: .user, banned: false, revoked: [])]).activePartner(Self.partner) }
                == .notAPartner)
        #expect(
            await Self.refusal { try await Self.check([account: .init(role: .partner, banned: true, revoked: [])]).activePartner(Self.partner) }
                == .accountBanned)
    }

    @Test("U6: a paid reading needs the entitlement from the token or a grant, and no newer revocation or ban")
    func purchaser() async throws {
        let account = AccountKey.of(Self.tarotBuyer.id)
        #expect(try await Self.check().purchaser(Self.tarotBuyer, of: "tarot") == account)
        #expect(try await Self.check([account: .init(role: nil, banned: true, revoked: [])]).purchaser(Self.tarotBuyer, of: nil) == account)
        let revoked = Self.check([account: .init(role: nil, banned: false, revoked: ["tarot"])])
        await #expect(throws: AccountRefusal.entitlementRequired("tarot")) { _ = try await revoked.purchaser(Self.tarotBuyer, of: "tarot") }
        let banned = Self.check([account: .init(role: nil, banned: true, revoked: [])])
        await #expect(throws: AccountRefusal.accountBanned) { _ = try await banned.purchaser(Self.tarotBuyer, of: "tarot") }
        let plain = AuthenticatedUser(id: "user-2", role: .user, entitlements: [])
        await #expect(throws: AccountRefusal.entitlementRequired("tarot")) { _ = try await Self.check().purchaser(plain, of: "tarot") }
        let granted = Self.check([AccountKey.of("user-2"): .init(role: nil, banned: false, revoked: [], granted: ["tarot"])])
        #expect(try await granted.purchaser(plain, of: "tarot") == AccountKey.of("user-2"))
    }

    @Test("U6: contact details for a signed-in user holding the entitlement, never a guest, a banned or revoked account")
    func seesContacts() async throws {
        let account = AccountKey.of(Self.tarotBuyer.id)
        #expect(try await Self.check().seesContacts(Self.tarotBuyer))
        #expect(try await Self.check().seesContacts(nil) == false)
        #expect(try await Self.check().seesContacts(AuthenticatedUser(id: "g", role: .guest, entitlements: [ContactDisclosure.entitlement])) == false)
        #expect(try await Self.check([account: .init(role: nil, banned: true, revoked: [])]).seesContacts(Self.tarotBuyer) == false)
        let revoked = Self.check([account: .init(role: nil, banned: false, revoked: [ContactDisclosure.entitlement])])
        #expect(try await revoked.seesContacts(Self.tarotBuyer) == false)
    }
}
