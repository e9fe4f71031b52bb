import Foundation
import PlatformCore
import PlatformEvents
import Testing

@testable import Auth

/// The flows that change or confirm a secret without signing in (U3, U4) over memory stores: the password-reset
/// link, the survey sign-up, forgot-PIN's second step and the email confirmation, each with its try limits. The
/// integration tests keep the mails, the links and codes in Postgres, and the flows over HTTP.
@Suite("auth: reset, sign-up, forgot-PIN and confirmation rules")
struct RecoveryFlowTests {
    let accounts = MemoryCredentials()
    let attempts = MemoryAttempts()
    let secrets: MemoryMailedSecrets
    let client = "198.51.100.1"

    init() { secrets = MemoryMailedSecrets(credentials: accounts) }

    var tries: TryLedger { TryLedger(attempts: attempts) }
    var codes: LimitedCodeCheck {
        LimitedCodeCheck(tries: tries, address: AttemptLimit(maxFailures: 50, window: 900), budget: AttemptLimit(maxFailures: 1_000, window: 3_600))
    }

    /// "ok" or the refusal a run threw.
    func outcome(_ work: () async throws -> Void) async -> String {
        do {
            try await work()
            return "ok"
        } catch {
            return "\(error)"
        }
    }

    @Test("U3: a reset link sets the password once; an unusable link counts against the address, a used one too")
    func resetPassword() async throws {
        let admin = try await accounts.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        secrets.addResetLink("link-1", for: admin.id)
        let reset = ResetPassword(
            resets: secrets, tries: tries, hasher: PasswordHasher.fast, addressLimit: AttemptLimit(maxFailures: 50, window: 900))
        func run(_ token: String?, _ new: String?, _ confirmation: String?) async -> String {
            await outcome { try await reset.run(token: token, newPassword: new, confirmation: confirmation, clientKey: client) }
        }
        #expect(await run("link-1", "", "Newer1234") == "emptyField")
        #expect(await run("link-1", "Newer1234", "Newer12345") == "passwordsDiffer")
        #expect(await run("link-1", "newer1234", "newer1234") == "weakPassword")
        #expect(attempts.count(.address, subject: client) == 0, "a request refused before the link is looked at costs no try")
        #expect(await run("nope", "Newer1234", "Newer1234") == "linkInvalid")
        #expect(attempts.count(.address, subject: client) == 1)
        #expect(await run("link-1", "Newer1234", "Newer1234") == "ok")
        #expect(attempts.count(.address, subject: client) == 1, "the right link gives its try back")
        let hash = try #require(accounts.passwordHash(of: admin.id))
        #expect(try await PasswordHasher.fast.verify("Newer1234", against: hash))
        #expect(await run("link-1", "Other1234", "Other1234") == "linkInvalid", "a link works once")
    }

    @Test("U4: sign-up steps have 3 tries each, then back to login with the count started over")
    func signUpTries() async throws {
        let signUp = SignUpSurvey(
            accounts: accounts, verifications: secrets, tries: tries, hasher: PasswordHasher.fast,
            limits: .init(
                email: AttemptLimit(maxFailures: 3, window: 900), pin: AttemptLimit(maxFailures: 3, window: 900),
                signUps: AttemptLimit(maxFailures: 20, window: 3_600)))
        func run(_ email: String?, _ pin: String?, _ confirmation: String?) async -> String {
            await outcome { _ = try await signUp.run(email: email, pin: pin, confirmation: confirmation, clientKey: client) }
        }
        #expect(await run(" ", "Ab12", "Ab12") == "emptyField")
        var answers: [String] = []
        for _ in 0..<4 { answers.append(await run("guest.hotel.com", "Ab12", "Ab12")) }
        #expect(answers == [2, 1, 0, 2].map { "invalidEmail(attemptsLeft: \($0))" })
        #expect(await run("guest@hotel.com", "Ab1", "Ab1") == "pinFormat(attemptsLeft: 2)")
        #expect(await run("guest@hotel.com", "Ab12", "Ab13") == "pinsDiffer(attemptsLeft: 1)", "PIN format and confirmation share the step's tries")
        #expect(await run("guest@hotel.com", "Ab12", "Ab12") == "ok")
        #expect(attempts.count(.signUpPin, subject: "guest@hotel.com") == 0, "a sign-up forgets its PIN step's failures")
        #expect(secrets.mailed == ["guest@hotel.com"], "the confirmation code is mailed at once")
        let address = try #require(EmailAddress("guest@hotel.com"))
        let stored = try #require(try await accounts.credentials(email: address))
        #expect(stored.account.kind == .survey && stored.passwordHash == nil)
        #expect(try await PasswordHasher.fast.verify("Ab12", against: try #require(stored.pinHash)))
        #expect(await run("Guest@Hotel.com", "Cd34", "Cd34") == "alreadyRegistered")
    }

    @Test("U4: forgot-PIN's code and PIN steps share 5 tries; a malformed PIN costs none; the new PIN ends the old tries")
    func finishForgotPin() async throws {
        let guest = try await accounts.add(email: "guest@hotel.com", kind: .survey, role: .user, password: "Ab12", hasher: PasswordHasher.fast)
        try await accounts.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        secrets.addPinCode("123456", for: guest.id)
        let finish = FinishForgotPin(
            accounts: accounts, pinResets: secrets, codes: codes, hasher: PasswordHasher.fast, limit: AttemptLimit(maxFailures: 5, window: 1_800))
        func run(_ email: String, _ code: String, _ pin: String = "Cd34", _ confirmation: String = "Cd34") async -> String {
            await outcome { _ = try await finish.run(email: email, code: code, pin: pin, confirmation: confirmation, clientKey: client) }
        }
        #expect(await run("admin@example.com", "123456") == "notRegistered")
        #expect(await run("guest@hotel.com", "000000") == "invalidCode(attemptsLeft: 4)")
        #expect(attempts.count(.address, subject: client) == 1, "a wrong code is a failure of the address too")
        #expect(await run("guest@hotel.com", "123456", "C!34", "C!34") == "pinFormat")
        #expect(await run("guest@hotel.com", "123456", "Cd34", "Cd35") == "pinsDiffer(attemptsLeft: 3)")
        #expect(attempts.count(.address, subject: client) == 1, "a right code gives the address's try back")
        let loginTries = AttemptSubject.ownerAndAddress(guest.id, address: client)
        _ = try await attempts.reserve(.surveyPin, subject: loginTries, limit: AttemptLimit(maxFailures: 3, window: 86_400))
        #expect(attempts.count(.surveyPin, subject: loginTries) == 1)
        #expect(await run("guest@hotel.com", "123456") == "ok")
        #expect(try await PasswordHasher.fast.verify("Cd34", against: try #require(accounts.pinHash(of: guest.id))))
        #expect(attempts.count(.forgotPin, subject: guest.id.uuidString) == 0)
        #expect(attempts.count(.surveyPin, subject: loginTries) == 0, "the login tries start anew")
        #expect(await run("guest@hotel.com", "123456") == "invalidCode(attemptsLeft: 4)", "a code works once")
    }

    @Test("U4: five wrong codes use forgot-PIN up; the address and budget tries of the refused sixth are given back")
    func forgotPinExhausted() async throws {
        let guest = try await accounts.add(email: "guest@hotel.com", kind: .survey, role: .user, password: "Ab12", hasher: PasswordHasher.fast)
        secrets.addPinCode("123456", for: guest.id)
        let finish = FinishForgotPin(
            accounts: accounts, pinResets: secrets, codes: codes, hasher: PasswordHasher.fast, limit: AttemptLimit(maxFailures: 5, window: 1_800))
        var answers: [String] = []
        for _ in 0..<6 {
            answers.append(
                await outcome {
                    _ = try await finish.run(email: "guest@hotel.com", code: "000000", pin: "Cd34", confirmation: "Cd34", clientKey: client)
                })
        }
        #expect(answers == (0...4).reversed().map { "invalidCode(attemptsLeft: \($0))" } + ["triesExhausted"])
        #expect(attempts.count(.address, subject: client) == 5 && attempts.count(.codeCheck, subject: "all") == 5)
    }

    @Test("email confirmation: a mailed code confirms once; wrong codes count; a confirmed address asks for no code")
    func emailConfirmation() async throws {
        let guest = try await accounts.add(email: "guest@hotel.com", kind: .survey, role: .user, password: "Ab12", hasher: PasswordHasher.fast)
        let start = StartEmailConfirmation(
            accounts: accounts, verifications: secrets, tries: tries, mailsPerAddress: AttemptLimit(maxFailures: 10, window: 3_600),
            mailsPerAccount: AttemptLimit(maxFailures: 3, window: 3_600))
        let verify = VerifyEmail(accounts: accounts, verifications: secrets, codes: codes, limit: AttemptLimit(maxFailures: 5, window: 1_800))
        #expect(await outcome { _ = try await start.run(email: "nobody@hotel.com", clientKey: client) } == "notRegistered")
        #expect(await outcome { _ = try await start.run(email: "guest@hotel.com", clientKey: client) } == "ok")
        let code = try #require(secrets.confirmationCode(of: guest.id))
        #expect(await outcome { _ = try await verify.run(email: "guest@hotel.com", code: " ", clientKey: client) } == "emptyField")
        #expect(await outcome { _ = try await verify.run(email: "guest@hotel.com", code: "x", clientKey: client) } == "invalidCode(attemptsLeft: 4)")
        #expect(await outcome { _ = try await verify.run(email: "guest@hotel.com", code: code, clientKey: client) } == "ok")
        #expect(secrets.isVerifiedNow(guest.id))
        #expect(attempts.count(.address, subject: client) == 1, "only the wrong code stays a failure")
        #expect(await outcome { _ = try await verify.run(email: "guest@hotel.com", code: code, clientKey: client) } == "alreadyVerified")
        #expect(await outcome { _ = try await start.run(email: "guest@hotel.com", clientKey: client) } == "alreadyVerified")
        try await accounts.add(email: "second@hotel.com", kind: .survey, role: .user, password: "Ab12", hasher: PasswordHasher.fast)
        var mails: [String] = []
        for _ in 0..<4 { mails.append(await outcome { _ = try await start.run(email: "second@hotel.com", clientKey: client) }) }
        #expect(mails.prefix(3) == ["ok", "ok", "ok"] && mails[3].hasPrefix("Exhausted"), "three confirmation mails an hour per account")
    }

    @Test("U3, U4: a recovery mail goes to an account of the flow's kind, counted per address and per account")
    func recoveryMail() async throws {
        let guest = try await accounts.add(email: "guest@hotel.com", kind: .survey, role: .user, password: "Ab12", hasher: PasswordHasher.fast)
        try await accounts.add(email: "admin@example.com", password: "Start1234", hasher: PasswordHasher.fast)
        let recovery = RequestRecoveryMail(
            accounts: accounts, tries: tries,
            limits: .init(
                address: AttemptLimit(maxFailures: 50, window: 900), mailsPerAddress: AttemptLimit(maxFailures: 10, window: 3_600),
                mailsPerAccount: AttemptLimit(maxFailures: 2, window: 3_600)))
        func run(_ email: String?, _ kind: AccountKind) async -> String {
            await outcome { _ = try await recovery.account(email: email, kind: kind, clientKey: client) }
        }
        #expect(await run("", .survey) == "emptyField")
        #expect(await run("guest.hotel.com", .survey) == "invalidEmail")
        #expect(await run("admin@example.com", .survey) == "notRegistered")
        #expect(await run("guest@hotel.com", .dashboard) == "notRegistered", "a survey account has no reset link")
        #expect(attempts.count(.address, subject: client) == 2, "an address without such an account is a failure of the caller")
        #expect(await run("guest@hotel.com", .survey) == "ok")
        #expect(await run("guest@hotel.com", .survey) == "ok")
        #expect(await run("guest@hotel.com", .survey).hasPrefix("Exhausted"), "two mails an hour to one account here")
        #expect(attempts.count(.recoveryMail, subject: guest.id.uuidString) == 2)
        #expect(attempts.count(.recoveryMailAddress, subject: client) == 2, "the refused mail gives the address's mail try back")
        #expect(attempts.count(.address, subject: client) == 2)
    }

    @Test("B1: an invitation needs a well-formed address that has no account yet")
    func inviteB1() async throws {
        final class MemoryInvitations: Invitations {
            let accounts: MemoryCredentials
            init(accounts: MemoryCredentials) { self.accounts = accounts }
            func invite(email: EmailAddress, role: UserRole) async throws -> Account? {
                try await accounts.create(email: email, kind: .dashboard, role: role, passwordHash: nil, pinHash: nil)
            }
        }
        let invite = InviteAccount(invitations: MemoryInvitations(accounts: accounts))
        #expect(await outcome { _ = try await invite.run(email: "teller.example.com", role: .partner) } == "invalidEmail")
        let invited = try await invite.run(email: "Teller@Example.com", role: .partner)
        #expect(invited.role == .partner && invited.kind == .dashboard && invited.email == "teller@example.com")
        #expect(await outcome { _ = try await invite.run(email: "teller@example.com", role: .admin) } == "emailTaken")
    }
}
