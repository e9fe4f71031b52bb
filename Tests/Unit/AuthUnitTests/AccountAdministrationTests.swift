import Foundation
import PlatformCore
import Testing

@testable import Auth

/// An admin editing, banning and re-roling accounts and granting features (U5), over memory stores.
@Suite("auth: account administration")
struct AccountAdministrationTests {
    let accounts = MemoryAdministeredAccounts()

    @Test("U5: a role is announced only when it changes; a ban ends the account's sessions")
    func roleEventOnlyOnChangeAndBanEndsSessions() async throws {
        let id = accounts.add(role: .user)
        let update = UpdateAccount(accounts: accounts)
        try await update.run(id: id, change: AccountChange(displayName: "Somchai", role: .user))
        #expect(accounts.events.isEmpty, "the same role is no news")
        #expect(accounts.account(id)?.displayName == "Somchai")
        try await update.run(id: id, change: AccountChange(role: .partner, banned: true))
        #expect(accounts.events == ["user.role-changed:partner", "user.banned:true"])
        #expect(accounts.sessionsEnded == [id])
        #expect(accounts.account(id)?.displayName == "Somchai", "a field not given stays")
        try await update.run(id: id, change: AccountChange(banned: false))
        #expect(accounts.events.last == "user.banned:false")
        #expect(accounts.sessionsEnded == [id], "lifting a ban ends nothing")
    }

    @Test("U5: editing, granting or revoking on an unknown account is refused")
    func unknownAccountRefused() async throws {
        let nobody = UUID()
        await #expect(throws: AccountRefusal.unknownAccount) {
            try await UpdateAccount(accounts: accounts).run(id: nobody, change: AccountChange(banned: true))
        }
        await #expect(throws: AccountRefusal.unknownAccount) { try await GrantEntitlement(accounts: accounts).run(.tarot, to: nobody) }
        await #expect(throws: AccountRefusal.unknownAccount) { try await RevokeEntitlement(accounts: accounts).run(.tarot, from: nobody) }
        #expect(accounts.events.isEmpty)
    }

    @Test("U5: a grant is idempotent; a revoke is announced even for a feature not held")
    func grantIdempotentRevokeAlwaysAnnounced() async throws {
        let id = accounts.add()
        try await GrantEntitlement(accounts: accounts).run(.tarot, to: id)
        try await GrantEntitlement(accounts: accounts).run(.tarot, to: id)
        #expect(accounts.account(id)?.entitlements == ["tarot"])
        try await RevokeEntitlement(accounts: accounts).run(.compatibility, from: id)
        #expect(accounts.account(id)?.entitlements == ["tarot"])
        #expect(accounts.events == ["entitlement.granted:tarot", "entitlement.granted:tarot", "entitlement.revoked:compatibility"])
    }

    @Test("U5: the role rule: announced only for a different role, sessions end only on a ban")
    func accountChangeRule() {
        #expect(AccountChange(role: .admin).changedRole(from: "user") == .admin)
        #expect(AccountChange(role: .admin).changedRole(from: "admin") == nil)
        #expect(AccountChange(displayName: "x").changedRole(from: "user") == nil)
        #expect(AccountChange(banned: true).endsSessions)
        #expect(!AccountChange(banned: false).endsSessions)
        #expect(!AccountChange().endsSessions)
    }
}
