import Foundation
import PlatformCore
import Testing

@testable import Auth

/// An install account is made without a form and deleted without a secret: its owner's deletions are
/// bounded per client address as its making is, over memory stores. The integration test keeps the 429.
@Suite("auth: install deletions per address")
struct InstallDeletionLimitTests {
    let credentials = MemoryCredentials()
    let attempts = MemoryAttempts()

    func end(_ signIns: MemorySignIns, deletionsPerAddress: Int) -> EndAccount {
        let limit = { (tries: Int) in AttemptLimit(maxFailures: tries, window: 3_600) }
        return EndAccount(
            accounts: credentials, ends: signIns, tries: TryLedger(attempts: attempts, now: { [attempts] in attempts.now }),
            hasher: PasswordHasher.fast,
            limits: .init(passwordCeiling: limit(5), pinCeiling: limit(5), installDeletionsPerAddress: limit(deletionsPerAddress)))
    }

    @Test("U9: an address deletes installs up to its limit, then waits out the hour; another address is not held back")
    func installDeletionsPerAddress() async throws {
        let signIns = MemorySignIns(credentials: credentials)
        let end = end(signIns, deletionsPerAddress: 2)
        var installs: [Account] = []
        for index in 0..<5 { installs.append(try await signIns.createInstall(app: .weather, installId: "i\(index)")) }
        try await end.deleteOwn(installs[0].id, password: nil, pin: nil, clientKey: "10.0.0.1")
        try await end.deleteOwn(installs[1].id, password: nil, pin: nil, clientKey: "10.0.0.1")
        await #expect(throws: TryLedger.Exhausted.self) {
            try await end.deleteOwn(installs[2].id, password: nil, pin: nil, clientKey: "10.0.0.1")
        }
        #expect(try await credentials.credentials(id: installs[2].id) != nil, "the refused install is still there")
        try await end.deleteOwn(installs[2].id, password: nil, pin: nil, clientKey: "10.0.0.2")
        attempts.advance(by: 3_601)
        try await end.deleteOwn(installs[3].id, password: nil, pin: nil, clientKey: "10.0.0.1")
        #expect(signIns.deleted.count == 4)
    }

    @Test("U9: a deletion that finds no account takes no try; accounts with a secret or a provider's identity are not counted")
    func onlyInstallDeletionsCount() async throws {
        let signIns = MemorySignIns(credentials: credentials)
        let end = end(signIns, deletionsPerAddress: 1)
        let install = try await signIns.createInstall(app: .places, installId: "p")
        try await end.deleteOwn(install.id, password: nil, pin: nil, clientKey: "10.0.0.1")
        await #expect(throws: EndAccount.Refusal.noAccount) {
            try await end.deleteOwn(install.id, password: nil, pin: nil, clientKey: "10.0.0.3")
        }
        #expect(attempts.count(.installDeletion, subject: "10.0.0.3") == 0)
        let external = try await signIns.findOrCreateExternal(subject: "s", displayName: nil, app: .horoscope)
        let dashboard = try await credentials.add(email: "d@example.com", role: .user, password: "Start1234", hasher: PasswordHasher.fast)
        try await end.deleteOwn(external.id, password: nil, pin: nil, clientKey: "10.0.0.1")
        try await end.deleteOwn(dashboard.id, password: "Start1234", pin: nil, clientKey: "10.0.0.1")
        #expect(signIns.deleted.count == 3)
        #expect(attempts.count(.installDeletion, subject: "10.0.0.1") == 1)
    }
}
