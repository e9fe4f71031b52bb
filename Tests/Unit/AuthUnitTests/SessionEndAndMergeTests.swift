import Foundation
import PlatformCore
import Testing

@testable import Auth

/// Opening and ending sessions (U1, U7) and merging an install account into the caller's (U9), over memory stores.
@Suite("auth: sessions, logout and install merges")
struct SessionEndAndMergeTests {
    let accounts = MemoryAdministeredAccounts()
    var sessions: MemorySessions { MemorySessions(accounts: accounts) }

    @Test("U1, U7: a sign-in opens a session whose refresh token logout then ends, and the login is announced")
    func openSessionThenLogout() async throws {
        let sessions = self.sessions
        let id = accounts.add()
        let account = try #require(accounts.account(id))
        let token = try await OpenSession(sessions: sessions, logins: sessions).run(for: account)
        let other = try await OpenSession(sessions: sessions, logins: sessions).run(for: account)
        #expect(token != other, "each sign-in is a session of its own")
        #expect(sessions.logins == [id, id])
        try await EndSession(sessions: sessions).run(refreshToken: token, accountId: id)
        try await EndSession(sessions: sessions).run(refreshToken: other, accountId: id)
    }

    @Test("U1: logout ends only the caller's own session, once")
    func logoutEndsOwnSessionOnce() async throws {
        let sessions = self.sessions
        let owner = accounts.add(), other = accounts.add()
        sessions.addRefreshToken("t1", for: owner)
        let end = EndSession(sessions: sessions)
        await #expect(throws: EndSession.Refusal.noSession) { try await end.run(refreshToken: "t1", accountId: other) }
        try await end.run(refreshToken: "t1", accountId: owner)
        await #expect(throws: EndSession.Refusal.noSession) { try await end.run(refreshToken: "t1", accountId: owner) }
    }

    @Test("U9: a merge carries the install's features and unset profile fields, then the install is gone")
    func mergeCarriesFeaturesAndProfile() async throws {
        let sessions = self.sessions
        let install = accounts.add(), member = accounts.add(kind: .horoscope)
        _ = try await accounts.grant(.tarot, to: install)
        _ = try await accounts.updateProfile(of: install, displayName: nil, language: "th", timeZone: "Asia/Bangkok", zodiacSign: nil)
        _ = try await accounts.updateProfile(of: member, displayName: nil, language: "en", timeZone: nil, zodiacSign: nil)
        sessions.addRefreshToken("install-token", for: install)
        let merged = try await MergeInstallAccount(merges: sessions).run(installRefreshToken: "install-token", into: member)
        #expect(merged == install)
        #expect(accounts.account(install) == nil)
        #expect(accounts.account(member)?.entitlements == ["tarot"])
        #expect(accounts.profile(member) == AccountStore.Profile(language: "en", timeZone: "Asia/Bangkok", zodiacSign: nil))
        await #expect(throws: MergeInstallAccount.Refusal.invalidToken) {
            _ = try await MergeInstallAccount(merges: sessions).run(installRefreshToken: "install-token", into: member)
        }
    }

    @Test("U9: only another plain install of the role user merges; the caller must still exist")
    func mergeRefusals() async throws {
        let sessions = self.sessions
        let member = accounts.add(kind: .horoscope)
        let partner = accounts.add(role: .partner)
        sessions.addRefreshToken("partner-token", for: partner)
        sessions.addRefreshToken("own-token", for: member)
        let merge = MergeInstallAccount(merges: sessions)
        await #expect(throws: MergeInstallAccount.Refusal.invalidToken) { _ = try await merge.run(installRefreshToken: "nope", into: member) }
        await #expect(throws: MergeInstallAccount.Refusal.notAnInstall) { _ = try await merge.run(installRefreshToken: "own-token", into: member) }
        await #expect(throws: MergeInstallAccount.Refusal.notAnInstall) {
            _ = try await merge.run(installRefreshToken: "partner-token", into: member)
        }
        let install = accounts.add()
        sessions.addRefreshToken("install-token", for: install)
        await #expect(throws: MergeInstallAccount.Refusal.noAccount) { _ = try await merge.run(installRefreshToken: "install-token", into: UUID()) }
        #expect(accounts.account(partner) != nil && accounts.account(install) != nil, "a refused merge moves nothing")
    }

    @Test("U9: the merge rule: a plain install of the role user, never into itself")
    func installMergeRule() {
        let a = UUID(), b = UUID()
        #expect(InstallMerge.mayMerge(from: a, kind: "install", role: "user", into: b))
        #expect(!InstallMerge.mayMerge(from: a, kind: "install", role: "user", into: a))
        #expect(!InstallMerge.mayMerge(from: a, kind: "install", role: "partner", into: b))
        #expect(!InstallMerge.mayMerge(from: a, kind: "horoscope", role: "user", into: b))
    }
}
