import Foundation
import Testing

@testable import Auth

/// What an address with no account of the flow's kind costs (U1, U4, X8): the seeds' answers already say it has none,
/// so no flow spends a bcrypt hash to hide it. A hasher with no room left (`Busy` on any use) shows whether one ran.
@Suite("auth: unknown addresses cost no hash")
struct UnknownAddressTests {
    let accounts = MemoryCredentials()
    let attempts = MemoryAttempts()
    let client = "198.51.100.1"

    var tries: TryLedger { TryLedger(attempts: attempts) }
    var limit: AttemptLimit { AttemptLimit(maxFailures: 50, window: 900) }

    /// A hasher whose one place is taken and which has no room to wait: any hash or check throws `Busy`.
    func fullHasher() async throws -> PasswordHasher {
        let hasher = PasswordHasher(cost: 4, maxConcurrent: 1, maxQueued: 0)
        try await hasher.gate.enter()
        return hasher
    }

    func outcome(_ work: () async throws -> Void) async -> String {
        do {
            try await work()
            return "ok"
        } catch {
            return "\(error)"
        }
    }

    @Test("U1, U4, X8: login and forgot-PIN answer an unknown address, or another kind's, without a hash; a known one needs it")
    func unknownAddressesCostNoHash() async throws {
        try await accounts.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        try await accounts.add(email: "guest@hotel.com", kind: .survey, role: .user, password: "Ab12", hasher: PasswordHasher.fast)
        let hasher = try await fullHasher()
        let dashboard = DashboardLogin(
            accounts: accounts, tries: tries, hasher: hasher, limits: .init(address: limit, owner: limit, ceiling: limit))
        let survey = SurveyLogin(accounts: accounts, tries: tries, hasher: hasher, limits: .init(address: limit, pin: limit, ceiling: limit))
        let finish = FinishForgotPin(
            accounts: accounts, pinResets: MemoryMailedSecrets(credentials: accounts),
            codes: LimitedCodeCheck(tries: tries, address: limit, budget: limit), hasher: hasher, limit: limit)
        for email in ["nobody@example.com", "guest@hotel.com"] {
            #expect(await outcome { _ = try await dashboard.run(email: email, password: "Start1234", clientKey: client) } == "notRegistered")
        }
        for email in ["nobody@hotel.com", "admin@example.com"] {
            #expect(await outcome { _ = try await survey.run(email: email, pin: "Ab12", clientKey: client) } == "notRegistered")
            let finished = await outcome {
                _ = try await finish.run(email: email, code: "123456", pin: "Cd34", confirmation: "Cd34", clientKey: client)
            }
            #expect(finished == "notRegistered")
        }
        // The probe works: the known accounts' checks do need the hasher.
        #expect(await outcome { _ = try await dashboard.run(email: "admin@example.com", password: "Start1234", clientKey: client) } == "Busy()")
        #expect(await outcome { _ = try await survey.run(email: "guest@hotel.com", pin: "Ab12", clientKey: client) } == "Busy()")
    }
}
