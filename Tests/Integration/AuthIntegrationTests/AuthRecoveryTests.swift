import Crypto
import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// Recovery flows that cannot be guessed or flooded (U2, U4): one live code or link per account,
/// used codes never come back, a new PIN ends every session, and recovery mails are limited per account and
/// per client address.
@Suite("auth: recovery flows")
struct AuthRecoveryTests {
    /// The `occurrence`-th PIN code in the mailbox (1-based), once that many were delivered.
    static func pinCode(_ auth: AuthTestHarness, occurrence: Int) async throws -> String? {
        let marker = "Your PIN reset code is "
        _ = try await eventually { auth.smtp.mailbox.components(separatedBy: marker).count > occurrence }
        let parts = auth.smtp.mailbox.components(separatedBy: marker)
        guard parts.count > occurrence else { return nil }
        return String(parts[occurrence].prefix(6))
    }

    @Test("X1: a queued recovery mail (code or link) is sealed at rest until it is sent")
    func queuedMailIsSealed() async throws {
        // Nothing listens on the mail port: the mails stay queued, as during an SMTP outage.
        try await AuthTestHarness.run(extraEnvironment: ["SMTP_PORT": "\(freePort())"]) { auth in
            _ = try await auth.post("/v1/survey/signup", ["email": "sealed@hotel.com", "pin": "ab12", "pinConfirmation": "ab12"])
            let (started, _) = try await auth.post("/v1/survey/forgot-pin/start", ["email": "sealed@hotel.com"])
            #expect(started == .accepted)
            let (reset, _) = try await auth.post("/v1/dashboard/password/forgot", ["email": "admin@example.com"])
            #expect(reset == .accepted || reset == .ok)
            // The sign-up's confirmation code, the PIN code and the reset link.
            #expect(try await auth.count("SELECT count(*)::int FROM outgoing_mail WHERE sent_at IS NULL") == 3)
            #expect(try await auth.count("SELECT count(*)::int FROM outgoing_mail WHERE body LIKE 'sealed-v1:%'") == 3)
            #expect(
                try await auth.count(
                    "SELECT count(*)::int FROM outgoing_mail WHERE body LIKE '%code is%' OR body LIKE '%token=%' OR body LIKE '%Hello%'") == 0)
        }
    }

    @Test("U4: a new code retires the old one, a used code never works again, and a new PIN ends every session")
    func oneLiveCodeAndSessionsEnd() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["ADDRESS_MAX_FAILURES": "1000"]) { auth in
            let email = "recover@hotel.com"
            _ = try await auth.post("/v1/survey/signup", ["email": email, "pin": "ab12", "pinConfirmation": "ab12"])
            let (_, login) = try await auth.post("/v1/survey/login", ["email": email, "pin": "ab12"])
            let refresh = try #require(login["refreshToken"])
            _ = try await auth.post("/v1/survey/forgot-pin/start", ["email": email])
            let first = try #require(try await Self.pinCode(auth, occurrence: 1))
            // The stored hash is keyed: a plain SHA-256 of account and code (a million guesses) does not find it.
            let accountText = try #require(login["account.id"])
            let accountId = try #require(UUID(uuidString: accountText))
            let plain = SHA256.hash(data: Data("\(accountId.uuidString):\(first)".utf8)).map { String(format: "%02x", $0) }.joined()
            #expect(try await auth.count("SELECT count(*)::int FROM pin_resets") == 1)
            #expect(try await auth.count("SELECT count(*)::int FROM pin_resets WHERE code_hash = '\(plain)'") == 0)
            _ = try await auth.post("/v1/survey/forgot-pin/start", ["email": email])
            let second = try #require(try await Self.pinCode(auth, occurrence: 2))
            let reset = { (code: String) in
                try await auth.post("/v1/survey/forgot-pin", ["email": email, "code": code, "pin": "cd34", "pinConfirmation": "cd34"])
            }
            if first != second {
                let (status, body) = try await reset(first)
                #expect(status == .unprocessableContent && body["error.code"] == "invalid_code", "the first code was retired")
            }
            var (status, body) = try await reset(second)
            #expect(status == .ok, "\(body)")
            (status, body) = try await reset(second)
            #expect(status == .unprocessableContent && body["error.code"] == "invalid_code", "a used code never comes back")
            (status, body) = try await auth.post("/v1/sessions/refresh", ["refreshToken": refresh])
            #expect(status == .unauthorized, "the session from before the new PIN ended")
            (status, _) = try await auth.post("/v1/survey/login", ["email": email, "pin": "cd34"])
            #expect(status == .ok)
        }
    }

    @Test("U2, U4: parallel recovery starts for one account still leave exactly one live code and one live link")
    func parallelStartsLeaveOneLiveCode() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["RECOVERY_MAILS_PER_ACCOUNT": "20", "RECOVERY_MAILS_PER_ADDRESS": "100"]) { auth in
            let email = "race@hotel.com"
            _ = try await auth.post("/v1/survey/signup", ["email": email, "pin": "ab12", "pinConfirmation": "ab12"])
            let starts = try await AuthAttemptLimitTests.burst(auth, count: 8, "/v1/survey/forgot-pin/start", ["email": email])
            #expect(starts.allSatisfy { $0.0 == 202 }, "\(starts)")
            #expect(try await auth.count("SELECT count(*)::int FROM pin_resets WHERE used_at IS NULL") == 1)
            let links = try await AuthAttemptLimitTests.burst(auth, count: 8, "/v1/dashboard/password/forgot", ["email": "admin@example.com"])
            #expect(links.allSatisfy { $0.0 == 202 }, "\(links)")
            #expect(try await auth.count("SELECT count(*)::int FROM password_resets WHERE used_at IS NULL") == 1)
        }
    }

    @Test("U2: asking for a second reset link retires the first")
    func oneLiveResetLink() async throws {
        try await AuthTestHarness.run { auth in
            _ = try await auth.post("/v1/dashboard/password/forgot", ["email": "admin@example.com"])
            let first = try #require(try await waitForResetLink(in: auth.smtp))
            _ = try await auth.post("/v1/dashboard/password/forgot", ["email": "admin@example.com"])
            let second = try #require(try await waitForResetLink(in: auth.smtp, occurrence: 2))
            let token = { (link: String) in String(link.split(separator: "=").last ?? "") }
            var (status, _) = try await auth.post(
                "/v1/dashboard/password/reset", ["token": token(first), "newPassword": "Fresh1234", "confirmation": "Fresh1234"])
            #expect(status == .gone)
            (status, _) = try await auth.post(
                "/v1/dashboard/password/reset", ["token": token(second), "newPassword": "Fresh1234", "confirmation": "Fresh1234"])
            #expect(status == .ok)
        }
    }

    @Test("U2, U4: recovery mails are limited per account and per client address (429), and nothing past a limit is queued")
    func recoveryMailLimits() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["RECOVERY_MAILS_PER_ACCOUNT": "3", "RECOVERY_MAILS_PER_ADDRESS": "5"]) { auth in
            let email = "flood@hotel.com"
            _ = try await auth.post("/v1/survey/signup", ["email": email, "pin": "ab12", "pinConfirmation": "ab12"])
            for expected in [202, 202, 202, 429] {
                let (status, body) = try await auth.post("/v1/survey/forgot-pin/start", ["email": email])
                #expect(Int(status.code) == expected, "\(body)")
            }
            // Two more mails from this address reach its limit of five, whatever the account.
            for expected in [202, 202, 429] {
                let (status, body) = try await auth.post("/v1/dashboard/password/forgot", ["email": "admin@example.com"])
                #expect(Int(status.code) == expected, "\(body)")
            }
            // Five recovery mails and the sign-up's confirmation code.
            #expect(try await eventually { auth.smtp.mailbox.components(separatedBy: "Subject: ").count - 1 >= 6 })
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await auth.count("SELECT count(*)::int FROM outgoing_mail") == 6, "no mail queued past a limit")
        }
    }

    @Test("U4, U7: survey sign-ups are limited per client address (SIGNUPS_PER_ADDRESS), and a refused one creates nothing")
    func signUpsPerAddress() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["SIGNUPS_PER_ADDRESS": "2"]) { auth in
            var statuses: [Int] = []
            for index in 0..<3 {
                let (status, _) = try await auth.post(
                    "/v1/survey/signup", ["email": "guest\(index)@hotel.com", "pin": "ab12", "pinConfirmation": "ab12"])
                statuses.append(Int(status.code))
            }
            #expect(statuses == [201, 201, 429])
            #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE kind = 'survey'") == 2)
        }
    }
}
