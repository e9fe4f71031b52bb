import Foundation
import HTTPTypes
import Logging
import PlatformCore
import PlatformHTTP
import ServiceTestSupport
import Synchronization
import TestSupport
import Testing

@Suite("auth: dashboard accounts, sessions and recovery, against real Postgres, broker and SMTP")
struct AuthDashboardTests {
    @Test("U1: login answers the seed's exact messages and a working session")
    func dashboardLoginMessages() async throws {
        try await AuthTestHarness.run { auth in
            var (status, body) = try await auth.post("/v1/dashboard/login", ["email": "", "password": "x"])
            #expect(status == .unprocessableContent && body["error.code"] == "empty_field")
            (status, body) = try await auth.post("/v1/dashboard/login", ["email": "admin@example"])
            #expect(status == .unprocessableContent && body["error.code"] == "empty_field")
            (status, body) = try await auth.post("/v1/dashboard/login", ["email": "admin.example.com", "password": "x"])
            #expect(status == .unprocessableContent && body["error.message"] == "you entered an invalid email, Please try again")
            (status, body) = try await auth.post("/v1/dashboard/login", ["email": "nobody@example.com", "password": "x"])
            #expect(status == .unauthorized && body["error.message"] == "you entered not registered email, Please try again")
            (status, body) = try await auth.post("/v1/dashboard/login", ["email": "admin@example.com", "password": "Wrong1234"])
            #expect(status == .unauthorized && body["error.message"] == "you entered invalid password, Please try again")
            #expect(body["error.details.attemptsLeft"] == "4")

            (status, body) = try await auth.post("/v1/dashboard/login", ["email": "Admin@Example.com", "password": "Start1234"])
            #expect(status == .ok)
            let verifier = try await AccessTokenVerifier(publicKey: auth.tokens.publicKeyBase64URL, issuer: "mobile-backend-auth")
            let user = try await verifier.verify(try #require(body["accessToken"]))
            #expect(user.role == .admin)
            #expect(body["account.email"] == "admin@example.com")
        }
    }

    @Test("U7, X1: behind a trusted proxy the forwarded client address is throttled, not the proxy; from others the header is ignored")
    func throttleUsesForwardedAddress() async throws {
        @Sendable func login(_ auth: AuthTestHarness, from client: String) async throws -> HTTPResponse.Status {
            let body = try JSONEncoder().encode(["email": "nobody@example.com", "password": "x"])
            return try await auth.request(.post, "/v1/dashboard/login", body: body, headers: [HTTPField.Name("X-Forwarded-For")!: client]).0
        }
        try await AuthTestHarness.run(extraEnvironment: ["ADDRESS_MAX_FAILURES": "3", "TRUSTED_PROXIES": "127.0.0.1, ::1"]) { auth in
            var answers: [HTTPResponse.Status] = []
            for _ in 0..<4 { answers.append(try await login(auth, from: "203.0.113.5")) }
            #expect(answers == [.unauthorized, .unauthorized, .unauthorized, .tooManyRequests])
            let other = try await login(auth, from: "203.0.113.6")
            #expect(other == .unauthorized, "another client behind the same proxy is not throttled")
        }
        try await AuthTestHarness.run(extraEnvironment: ["ADDRESS_MAX_FAILURES": "3"]) { auth in
            var answers: [HTTPResponse.Status] = []
            for index in [0, 1, 2, 99] { answers.append(try await login(auth, from: "198.51.100.\(index)")) }
            #expect(answers == [.unauthorized, .unauthorized, .unauthorized, .tooManyRequests], "an untrusted peer cannot pick its address")
        }
    }

    @Test("U7: refresh tokens rotate, a reused one ends the session, and logout revokes it")
    func refreshRotationReuseAndLogout() async throws {
        try await AuthTestHarness.run { auth in
            let (_, login) = try await auth.post("/v1/dashboard/login", ["email": "admin@example.com", "password": "Start1234"])
            let first = try #require(login["refreshToken"])
            let (status, rotated) = try await auth.post("/v1/sessions/refresh", ["refreshToken": first])
            #expect(status == .ok)
            let second = try #require(rotated["refreshToken"])
            #expect(second != first)
            // Replaying the first token is treated as theft: the whole family, including the second token, ends.
            let (reuse, reuseBody) = try await auth.post("/v1/sessions/refresh", ["refreshToken": first])
            #expect(reuse == .unauthorized && reuseBody["error.code"] == "refresh_token_reused")
            let (afterReuse, afterReuseBody) = try await auth.post("/v1/sessions/refresh", ["refreshToken": second])
            #expect(afterReuse == .unauthorized && afterReuseBody["error.code"] == "invalid_refresh_token")

            let (_, again) = try await auth.post("/v1/dashboard/login", ["email": "admin@example.com", "password": "Start1234"])
            let access = try #require(again["accessToken"])
            let refresh = try #require(again["refreshToken"])
            let (logout, _) = try await auth.post("/v1/sessions/logout", ["refreshToken": refresh], bearer: access)
            #expect(logout == .ok)
            // U9: an ended session is not a theft; the answer says what the document says.
            let (afterLogout, afterLogoutBody) = try await auth.post("/v1/sessions/refresh", ["refreshToken": refresh])
            #expect(afterLogout == .unauthorized && afterLogoutBody["error.code"] == "invalid_refresh_token")
            let (noToken, _) = try await auth.post("/v1/sessions/logout", ["refreshToken": refresh])
            #expect(noToken == .unauthorized)
        }
    }

    @Test("U3: a changed password works at once, the old one no longer, and the other sessions end (rules: ChangeDashboardPasswordTests)")
    func changePasswordEndsSessions() async throws {
        try await AuthTestHarness.run { auth in
            let (_, other) = try await auth.post("/v1/dashboard/login", ["email": "admin@example.com", "password": "Start1234"])
            let (_, login) = try await auth.post("/v1/dashboard/login", ["email": "admin@example.com", "password": "Start1234"])
            let access = try #require(login["accessToken"])
            let path = "/v1/dashboard/password/change"
            var (status, body) = try await auth.post(
                path, ["currentPassword": "Start1234", "newPassword": "Better123", "confirmation": "Better124"], bearer: access)
            #expect(status == .unprocessableContent && body["error.code"] == "confirmation_mismatch")
            (status, body) = try await auth.post(
                path, ["currentPassword": "Start1234", "newPassword": "Better123", "confirmation": "Better123"], bearer: access)
            #expect(status == .ok && body["refreshToken"] != nil)
            let (otherRefresh, _) = try await auth.post("/v1/sessions/refresh", ["refreshToken": try #require(other["refreshToken"])])
            #expect(otherRefresh == .unauthorized, "the session signed in elsewhere ended")
            let (old, _) = try await auth.post("/v1/dashboard/login", ["email": "admin@example.com", "password": "Start1234"])
            #expect(old == .unauthorized)
            let (new, _) = try await auth.post("/v1/dashboard/login", ["email": "admin@example.com", "password": "Better123"])
            #expect(new == .ok)
        }
    }

    @Test("U2: a reset link arrives by SMTP, works once, and an expired or used link is refused")
    func forgotAndResetPassword() async throws {
        try await AuthTestHarness.run { auth in
            var (status, body) = try await auth.post("/v1/dashboard/password/forgot", ["email": "ghost@example.com"])
            #expect(status == .unprocessableContent && body["error.message"] == "invalid email")
            (status, body) = try await auth.post("/v1/dashboard/password/forgot", ["email": "admin@example.com"])
            #expect(status == .accepted)
            let link = try #require(try await waitForResetLink(in: auth.smtp))
            let token = String(link.split(separator: "=").last!)
            (status, body) = try await auth.post(
                "/v1/dashboard/password/reset", ["token": token, "newPassword": "Fresh1234", "confirmation": "Fresh1235"])
            #expect(status == .unprocessableContent && body["error.message"] == "two entered passwords are not the same")
            (status, _) = try await auth.post(
                "/v1/dashboard/password/reset", ["token": token, "newPassword": "Fresh1234", "confirmation": "Fresh1234"])
            #expect(status == .ok)
            (status, body) = try await auth.post(
                "/v1/dashboard/password/reset", ["token": token, "newPassword": "Other1234", "confirmation": "Other1234"])
            #expect(status == .gone && body["error.code"] == "reset_link_invalid", "a link works once")
            let (login, _) = try await auth.post("/v1/dashboard/login", ["email": "admin@example.com", "password": "Fresh1234"])
            #expect(login == .ok)

            // A second request makes a second link; once past its 24 hours it is refused.
            (status, _) = try await auth.post("/v1/dashboard/password/forgot", ["email": "admin@example.com"])
            #expect(status == .accepted)
            #expect(try await eventually { auth.smtp.mailbox.components(separatedBy: "https://dashboard.test/reset?token=").count == 3 })
            try await auth.db.client.query("UPDATE password_resets SET expires_at = now() - interval '1 second'", logger: auth.db.logger)
            let second = try #require(try await waitForResetLink(in: auth.smtp, occurrence: 2))
            (status, _) = try await auth.post(
                "/v1/dashboard/password/reset",
                [
                    "token": String(second.split(separator: "=").last!), "newPassword": "Later1234", "confirmation": "Later1234",
                ])
            #expect(status == .gone)
        }
    }

    @Test("U2, X1: a reset link's token reaches no log line, and the queue drops the mail's text once it is sent")
    func resetTokenNotLoggedNorKept() async throws {
        let lines = CapturedLogLines()
        let logger = Logger(label: "auth-test") { label in JSONLogHandler(label: label, write: { lines.append($0) }) }
        try await AuthTestHarness.run(extraEnvironment: ["LOG_LEVEL": "info"], logger: logger) { auth in
            let (status, _) = try await auth.post("/v1/dashboard/password/forgot", ["email": "admin@example.com"])
            #expect(status == .accepted)
            let link = try #require(try await waitForResetLink(in: auth.smtp))
            let token = String(link.split(separator: "=").last ?? "")
            #expect(token.count >= 20)
            let (checked, _) = try await auth.request(.get, "/v1/dashboard/password/reset?lang=en&token=\(token)")
            #expect(checked == .ok)
            let logged = lines.text
            #expect(logged.contains("/v1/dashboard/password/reset"), "the request is logged")
            #expect(logged.contains("token=REDACTED") && logged.contains("lang=en"), "other parameters are kept")
            #expect(!logged.contains(token), "the token is in the log")
            #expect(
                try await eventually {
                    try await auth.count("SELECT count(*)::int FROM outgoing_mail WHERE sent_at IS NOT NULL AND body = ''") == 1
                }, "the sent mail's body is dropped")
            #expect(try await auth.count("SELECT count(*)::int FROM outgoing_mail WHERE body LIKE '%' || 'token=' || '%'") == 0)
        }
    }

    @Test("X3: hostile and oversized input gets 4xx JSON errors")
    func hostileInput() async throws {
        try await AuthTestHarness.run { auth in
            var (status, body) = try await auth.post("/v1/dashboard/login", ["email": "'; DROP TABLE accounts; --", "password": "x"])
            #expect(status == .unprocessableContent && body["error.code"] == "invalid_email")
            (status, body) = try await auth.post("/v1/dashboard/login", ["email": String(repeating: "a", count: 70_000), "password": "x"])
            #expect(status == .contentTooLarge)
            (status, body) = try await auth.post("/v1/sessions/refresh", ["refreshToken": String(repeating: "r", count: 500)])
            #expect(status == .unauthorized && body["error.code"] == "invalid_refresh_token")
            #expect(try await auth.adminExists(), "the accounts table is still there")
        }
    }
}

/// Log lines written by a `JSONLogHandler`, for tests that check what reaches the log.
final class CapturedLogLines: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var text: String { lines.withLock { $0.joined() } }
}
