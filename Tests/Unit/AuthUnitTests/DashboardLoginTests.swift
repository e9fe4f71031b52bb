import Foundation
import Testing

@testable import Auth

/// The dashboard login's rules (U1, U7) over memory stores: the seed's refusals in its order, the try limits per
/// account and address, the account's ceiling. The integration tests keep what only the service shows: the
/// session over HTTP, the forwarded address behind a proxy, and parallel guesses under Postgres' lock.
@Suite("auth: the dashboard login's rules")
struct DashboardLoginTests {
    let accounts = MemoryCredentials()
    let attempts = MemoryAttempts()

    func login(owner: Int = 5, address: Int = 50, ceiling: Int = 30, hasher: PasswordHasher = .fast) -> DashboardLogin {
        DashboardLogin(
            accounts: accounts, tries: TryLedger(attempts: attempts), hasher: hasher,
            limits: .init(
                address: AttemptLimit(maxFailures: address, window: 900), owner: AttemptLimit(maxFailures: owner, window: 900),
                ceiling: AttemptLimit(maxFailures: ceiling, window: 900)))
    }

    func refusal(_ body: () async throws -> Account) async -> (any Error)? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test("U1: empty fields, an invalid email, an unknown one and a wrong password are refused in the seed's order")
    func refusalsInOrder() async throws {
        try await accounts.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        let login = login()
        let cases: [(String?, String?, DashboardLogin.Refusal)] = [
            ("", "x", .emptyField), ("admin@example.com", nil, .emptyField), ("  ", "Start1234", .emptyField),
            ("admin@example.com", " \t", .emptyField), ("admin.example.com", "x", .invalidEmail),
            ("nobody@example.com", "x", .notRegistered), ("admin@example.com", "Wrong1234", .wrongPassword(attemptsLeft: 4)),
            ("admin@example.com", "Wrong1234", .wrongPassword(attemptsLeft: 3)),
        ]
        for (email, password, expected) in cases {
            let error = await refusal { try await login.run(email: email, password: password, clientKey: "198.51.100.1") }
            #expect(error as? DashboardLogin.Refusal == expected, "\(email ?? "nil") / \(password ?? "nil")")
        }
        let account = try await login.run(email: "Admin@Example.com ", password: "Start1234", clientKey: "198.51.100.1")
        #expect(account.email == "admin@example.com", "the address is matched in lower case, trimmed")
    }

    @Test("U1: a survey or app account is not registered for the dashboard, whatever its secret")
    func onlyDashboardAccounts() async throws {
        try await accounts.add(email: "guest@hotel.com", kind: .survey, role: .user, password: "ab12", hasher: PasswordHasher.fast)
        let error = await refusal { try await login().run(email: "guest@hotel.com", password: "ab12", clientKey: "a") }
        #expect(error as? DashboardLogin.Refusal == .notRegistered)
    }

    @Test("U7: after the owner's wrong passwords even the right one waits until the window of the oldest ends")
    func lockoutUntilWindowEnds() async throws {
        let admin = try await accounts.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        let login = login(owner: 3)
        let firstFailure = attempts.now
        for _ in 0..<3 {
            let error = await refusal { try await login.run(email: "admin@example.com", password: "Nope12345", clientKey: "a") }
            #expect(error is DashboardLogin.Refusal)
        }
        let locked = await refusal { try await login.run(email: "admin@example.com", password: "Start1234", clientKey: "a") }
        #expect(locked as? TryLedger.Exhausted == TryLedger.Exhausted(until: firstFailure.addingTimeInterval(900)))
        attempts.advance(by: 899)
        #expect(await refusal { try await login.run(email: "admin@example.com", password: "Start1234", clientKey: "a") } is TryLedger.Exhausted)
        attempts.advance(by: 1)
        _ = try await login.run(email: "admin@example.com", password: "Start1234", clientKey: "a")
        #expect(attempts.count(.dashboardPassword, subject: AttemptSubject.ownerAndAddress(admin.id, address: "a")) == 0)
    }

    @Test("U7: one address failing on unknown accounts is throttled, whatever account it tries next")
    func addressThrottle() async throws {
        try await accounts.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        let login = login(address: 3)
        for index in 0..<3 {
            let error = await refusal { try await login.run(email: "nobody\(index)@example.com", password: "x", clientKey: "203.0.113.5") }
            #expect(error as? DashboardLogin.Refusal == .notRegistered)
        }
        let throttled = await refusal { try await login.run(email: "admin@example.com", password: "Start1234", clientKey: "203.0.113.5") }
        #expect(throttled is TryLedger.Exhausted)
        _ = try await login.run(email: "admin@example.com", password: "Start1234", clientKey: "203.0.113.6")
    }

    @Test("U7, X3: a stranger's wrong passwords lock their address, not the owner; addresses together reach the ceiling")
    func ownerAndCeiling() async throws {
        try await accounts.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        let login = login(owner: 3, ceiling: 7)
        func attempt(_ password: String, from client: String) async -> String {
            switch await refusal({ try await login.run(email: "admin@example.com", password: password, clientKey: client) }) {
            case nil: "ok"
            case is TryLedger.Exhausted: "wait"
            case let refusal as DashboardLogin.Refusal: "\(refusal)"
            case let error?: "\(error)"
            }
        }
        var stranger: [String] = []
        for _ in 0..<4 { stranger.append(await attempt("Wrong1234", from: "203.0.113.5")) }
        #expect(stranger == ["wrongPassword(attemptsLeft: 2)", "wrongPassword(attemptsLeft: 1)", "wrongPassword(attemptsLeft: 0)", "wait"])
        #expect(await attempt("Start1234", from: "198.51.100.7") == "ok", "the owner, from their own address")
        for _ in 0..<3 { _ = await attempt("Wrong1234", from: "203.0.113.6") }
        #expect(await attempt("Wrong1234", from: "203.0.113.7") == "wrongPassword(attemptsLeft: 2)", "the seventh failure")
        #expect(await attempt("Start1234", from: "198.51.100.7") == "wait", "past the ceiling every address waits")
    }

    @Test("U7: a login that succeeds gives its address try back and forgets the owner's failures from that address")
    func successForgets() async throws {
        let admin = try await accounts.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        let login = login()
        for _ in 0..<2 { _ = await refusal { try await login.run(email: "admin@example.com", password: "Wrong1234", clientKey: "a") } }
        _ = try await login.run(email: "admin@example.com", password: "Start1234", clientKey: "a")
        #expect(attempts.count(.dashboardPassword, subject: AttemptSubject.ownerAndAddress(admin.id, address: "a")) == 0)
        #expect(attempts.count(.address, subject: "a") == 2, "the wrong passwords still count against the address")
        #expect(attempts.count(.accountCeiling, subject: admin.id.uuidString) == 2)
    }

    @Test("U7: a banned account is told so only with the right password")
    func banned() async throws {
        try await accounts.add(email: "admin@example.com", password: "Start1234", banned: true, hasher: PasswordHasher.fast)
        let login = login()
        #expect(
            await refusal { try await login.run(email: "admin@example.com", password: "Wrong1234", clientKey: "a") } as? DashboardLogin.Refusal
                == .wrongPassword(attemptsLeft: 4))
        #expect(
            await refusal { try await login.run(email: "admin@example.com", password: "Start1234", clientKey: "a") } as? DashboardLogin.Refusal
                == .banned)
    }

    @Test("U7: when the password checks are full, the request counts as no try at all")
    func busyCountsNothing() async throws {
        try await accounts.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        let full = PasswordHasher(cost: 4, maxConcurrent: 1, maxQueued: 0)
        try await full.gate.enter()  // the one place taken, no room to wait
        let error = await refusal { try await login(hasher: full).run(email: "admin@example.com", password: "Start1234", clientKey: "a") }
        #expect(error is PasswordHasher.Busy)
        #expect(attempts.total == 0)
    }
}
