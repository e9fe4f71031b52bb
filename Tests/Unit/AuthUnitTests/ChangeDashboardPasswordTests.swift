import Foundation
import Testing

@testable import Auth

/// Changing a dashboard password (U3) over memory stores.
@Suite("auth: changing the dashboard password")
struct ChangeDashboardPasswordTests {
    let accounts = MemoryCredentials()
    let attempts = MemoryAttempts()

    var change: ChangeDashboardPassword {
        ChangeDashboardPassword(
            accounts: accounts, tries: TryLedger(attempts: attempts), hasher: PasswordHasher.fast, limit: AttemptLimit(maxFailures: 5, window: 900))
    }

    /// The refusal, nil when the change was made; any other error fails the test.
    func refusal(userId: String, _ current: String?, _ new: String?, _ confirmation: String?) async -> ChangeDashboardPassword.Refusal? {
        do {
            _ = try await change.run(userId: userId, current: current, new: new, confirmation: confirmation)
            return nil
        } catch let refusal as ChangeDashboardPassword.Refusal {
            return refusal
        } catch {
            Issue.record("not a refusal: \(error)")
            return nil
        }
    }

    @Test("U3: the confirmation, the policy and the current password are checked in that order")
    func checksInOrder() async throws {
        let admin = try await accounts.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        let id = admin.id.uuidString
        #expect(await refusal(userId: id, "Start1234", "Better123", nil) == .emptyField)
        #expect(await refusal(userId: id, "Wrong1234", "Better123", "Better124") == .confirmationMismatch)
        #expect(await refusal(userId: id, "Wrong1234", "weakpass1", "weakpass1") == .weakPassword)
        #expect(await refusal(userId: id, "Wrong1234", "Better123", "Better123") == .wrongCurrentPassword)
        #expect(attempts.count(.dashboardPassword, subject: id) == 1, "a wrong current password counts")
        #expect(await refusal(userId: id, "Start1234", "Better123", "Better123") == nil)
        let hash = try #require(accounts.passwordHash(of: admin.id))
        #expect(try await PasswordHasher.fast.verify("Better123", against: hash))
        #expect(try await !PasswordHasher.fast.verify("Start1234", against: hash))
    }

    @Test("U3: only a dashboard account with a password changes it here")
    func onlyDashboardAccounts() async throws {
        let guest = try await accounts.add(email: "guest@hotel.com", kind: .survey, role: .user, password: "ab12", hasher: PasswordHasher.fast)
        #expect(await refusal(userId: guest.id.uuidString, "ab12", "Better123", "Better123") == .notDashboardAccount)
        #expect(await refusal(userId: "not-a-uuid", "x", "Better123", "Better123") == .notDashboardAccount)
        #expect(await refusal(userId: UUID().uuidString, "x", "Better123", "Better123") == .notDashboardAccount)
    }

    @Test("U3: past the limit of wrong current passwords the caller waits")
    func limit() async throws {
        let admin = try await accounts.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        for _ in 0..<5 { _ = await refusal(userId: admin.id.uuidString, "Wrong1234", "Better123", "Better123") }
        do {
            _ = try await change.run(userId: admin.id.uuidString, current: "Start1234", new: "Better123", confirmation: "Better123")
            Issue.record("a sixth try was evaluated")
        } catch {
            #expect(error is TryLedger.Exhausted)
        }
    }
}
