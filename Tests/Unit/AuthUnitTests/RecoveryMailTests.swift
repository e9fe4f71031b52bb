import Foundation
import Testing

@testable import Auth

/// Mailing a dashboard reset link (U3) and a forgot-PIN code (U4) over memory stores: nothing is mailed for a
/// refused request.
@Suite("auth: mailing recovery links and codes")
struct RecoveryMailTests {
    let accounts = MemoryCredentials()
    let attempts = MemoryAttempts()
    let mails = MemoryRecoveryMails()
    let client = "203.0.113.7"

    var recovery: RequestRecoveryMail {
        RequestRecoveryMail(
            accounts: accounts, tries: TryLedger(attempts: attempts),
            limits: .init(
                address: AttemptLimit(maxFailures: 50, window: 900), mailsPerAddress: AttemptLimit(maxFailures: 10, window: 3_600),
                mailsPerAccount: AttemptLimit(maxFailures: 1, window: 3_600)))
    }

    @Test("U3: a dashboard account gets its reset link; a survey address or a second request within the hour gets none")
    func resetLinkMailedOnlyWhenAllowed() async throws {
        try await accounts.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        try await accounts.add(email: "guest@hotel.com", kind: .survey, role: .user, password: "Ab12", hasher: PasswordHasher.fast)
        let mail = MailResetLink(recovery: recovery, links: mails, linkBase: "https://dash.example.com/reset")
        await #expect(throws: RequestRecoveryMail.Refusal.notRegistered) { try await mail.run(email: "guest@hotel.com", clientKey: client) }
        try await mail.run(email: "admin@example.com", clientKey: client)
        await #expect(throws: TryLedger.Exhausted.self) { try await mail.run(email: "admin@example.com", clientKey: client) }
        #expect(mails.mails == ["link:admin@example.com https://dash.example.com/reset"])
    }

    @Test("U4: a survey account gets its forgot-PIN code at its normalised address; a dashboard address gets none")
    func pinCodeMailedOnlyToSurveyAccounts() async throws {
        try await accounts.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        try await accounts.add(email: "guest@hotel.com", kind: .survey, role: .user, password: "Ab12", hasher: PasswordHasher.fast)
        let mail = MailPinCode(recovery: recovery, codes: mails)
        await #expect(throws: RequestRecoveryMail.Refusal.notRegistered) { _ = try await mail.run(email: "admin@example.com", clientKey: client) }
        await #expect(throws: RequestRecoveryMail.Refusal.emptyField) { _ = try await mail.run(email: nil, clientKey: client) }
        let email = try await mail.run(email: "Guest@Hotel.com", clientKey: client)
        #expect(email.value == "guest@hotel.com")
        #expect(mails.mails == ["pin:guest@hotel.com"])
    }
}
