import Foundation
import Testing

@testable import Auth

/// The hotel survey's login (U4, U7) over memory stores: three wrong PINs a day per account and address, then
/// forgot-PIN; the ceiling across addresses; the order of the seed's refusals. The integration tests keep the
/// whole flow (sign-up, login, forgot-PIN by mail) through the service.
@Suite("auth: the survey login's rules")
struct SurveyLoginTests {
    let accounts = MemoryCredentials()
    let attempts = MemoryAttempts()

    func login(address: Int = 50, ceiling: Int = 30) -> SurveyLogin {
        SurveyLogin(
            accounts: accounts, tries: TryLedger(attempts: attempts), hasher: PasswordHasher.fast,
            limits: .init(
                address: AttemptLimit(maxFailures: address, window: 900), pin: AttemptLimit(maxFailures: 3, window: 86_400),
                ceiling: AttemptLimit(maxFailures: ceiling, window: 86_400)))
    }

    /// What a login answered: "ok", "wait" (the caller must wait) or the refusal.
    func attempt(_ login: SurveyLogin, _ email: String?, _ pin: String?, from client: String = "198.51.100.1") async -> String {
        do {
            _ = try await login.run(email: email, pin: pin, clientKey: client)
            return "ok"
        } catch is TryLedger.Exhausted {
            return "wait"
        } catch {
            return "\(error)"
        }
    }

    @Test("U4: refusals in the seed's order; an unknown or non-survey address is sent to sign-up")
    func refusals() async throws {
        try await accounts.add(email: "guest@hotel.com", kind: .survey, role: .user, password: "Ab12", hasher: PasswordHasher.fast)
        try await accounts.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        let login = login()
        #expect(await attempt(login, "guest@hotel.com", " ") == "emptyField")
        #expect(await attempt(login, nil, "Ab12") == "emptyField")
        #expect(await attempt(login, "guest.hotel.com", "Ab12") == "invalidEmail")
        #expect(await attempt(login, "nobody@hotel.com", "Ab12") == "notRegistered")
        #expect(await attempt(login, "admin@example.com", "Start1234") == "notRegistered", "a dashboard account is not a survey one")
        #expect(await attempt(login, "Guest@Hotel.com", "Ab12") == "ok")
    }

    @Test("U4: three wrong PINs: retry, retry, then forgot-PIN; afterwards the right PIN waits a day")
    func threeTriesADay() async throws {
        try await accounts.add(email: "guest@hotel.com", kind: .survey, role: .user, password: "Ab12", hasher: PasswordHasher.fast)
        let login = login()
        var answers: [String] = []
        for pin in ["zz99", "zz98", "zz97", "Ab12"] { answers.append(await attempt(login, "guest@hotel.com", pin)) }
        #expect(answers == ["wrongPin(attemptsLeft: 2)", "wrongPin(attemptsLeft: 1)", "pinTriesExhausted", "pinTriesExhausted"])
        #expect(await attempt(login, "guest@hotel.com", "Ab12", from: "198.51.100.2") == "ok", "another address has its own tries")
        attempts.advance(by: 86_400)
        #expect(await attempt(login, "guest@hotel.com", "Ab12") == "ok", "a day later")
    }

    @Test("U4: a right PIN forgets that address's wrong ones; the address's own count keeps them")
    func successForgets() async throws {
        let guest = try await accounts.add(email: "guest@hotel.com", kind: .survey, role: .user, password: "Ab12", hasher: PasswordHasher.fast)
        let login = login()
        for _ in 0..<2 { _ = await attempt(login, "guest@hotel.com", "zz99") }
        #expect(await attempt(login, "guest@hotel.com", "Ab12") == "ok")
        #expect(attempts.count(.surveyPin, subject: AttemptSubject.ownerAndAddress(guest.id, address: "198.51.100.1")) == 0)
        #expect(attempts.count(.address, subject: "198.51.100.1") == 2)
        #expect(await attempt(login, "guest@hotel.com", "zz99") == "wrongPin(attemptsLeft: 2)", "three tries again")
    }

    @Test("U7: wrong PINs from many addresses together reach the account's ceiling, past which everyone waits")
    func ceiling() async throws {
        try await accounts.add(email: "guest@hotel.com", kind: .survey, role: .user, password: "Ab12", hasher: PasswordHasher.fast)
        let login = login(ceiling: 5)
        for index in 0..<5 { _ = await attempt(login, "guest@hotel.com", "zz99", from: "203.0.113.\(index / 2)") }
        #expect(await attempt(login, "guest@hotel.com", "Ab12", from: "198.51.100.9") == "wait")
    }

    @Test("U7: a banned guest is told so only with the right PIN")
    func banned() async throws {
        try await accounts.add(email: "guest@hotel.com", kind: .survey, role: .user, password: "Ab12", banned: true, hasher: PasswordHasher.fast)
        let login = login()
        #expect(await attempt(login, "guest@hotel.com", "zz99") == "wrongPin(attemptsLeft: 2)")
        #expect(await attempt(login, "guest@hotel.com", "Ab12") == "banned")
    }
}
