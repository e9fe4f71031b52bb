import Foundation
import PostgresNIO
import ServiceTestSupport
import TestSupport
import Testing

/// One spelling of an account id (U7, X1): what auth answers, the access token's `sub` and the events' keys, in lower
/// case as every other service stores and compares ids.
@Suite("auth: account ids are spelt as the token's subject")
struct AuthAccountIdTests {
    /// The `sub` claim of an access token, read from its payload without checking the signature.
    static func subject(of token: String) throws -> String {
        let parts = token.split(separator: ".")
        try #require(parts.count == 3)
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let payload = try #require(Data(base64Encoded: base64))
        let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        return try #require(claims["sub"] as? String)
    }

    /// The account id a session answer names, checked against its access token's subject.
    static func sessionId(_ body: JSONObject, _ route: String) throws -> String {
        let id = try #require(body["account.id"], "\(route): \(body)")
        #expect(id == (try subject(of: try #require(body["accessToken"]))), "\(route) answers the token's subject")
        #expect(id == id.lowercased(), "\(route) answers the id in lower case")
        return id
    }

    @Test("U7, X1: installs, survey login, GET /v1/me, merge and invitations answer the token's sub; event keys are lower case")
    func accountIdsAreTheTokensSubject() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["ADDRESS_MAX_FAILURES": "1000"]) { auth in
            var (status, body) = try await auth.post("/v1/installs", ["app": "horoscope", "installId": "ids-install-1"])
            #expect(status == .created)
            let install = try Self.sessionId(body, "POST /v1/installs")
            let installRefresh = try #require(body["refreshToken"])

            let email = "ids-guest@hotel.com"
            (status, _) = try await auth.post("/v1/survey/signup", ["email": email, "pin": "ab12", "pinConfirmation": "ab12"])
            #expect(status == .created)
            (status, body) = try await auth.post("/v1/survey/login", ["email": email, "pin": "ab12"])
            #expect(status == .ok)
            let member = try Self.sessionId(body, "POST /v1/survey/login")
            let memberToken = try #require(body["accessToken"])

            (status, body) = try await auth.request(.get, "/v1/me", bearer: memberToken)
            #expect(status == .ok && body["account.id"] == member, "GET /v1/me: \(body)")

            (status, body) = try await auth.post("/v1/me/merge-install", ["installRefreshToken": installRefresh], bearer: memberToken)
            #expect(status == .ok && body["account.id"] == member, "POST /v1/me/merge-install: \(body)")

            let admin = try await auth.adminToken()
            (status, body) = try await auth.request(
                .post, "/v1/admin/invitations", body: Data(#"{"email": "ids-teller@example.com", "role": "partner"}"#.utf8), bearer: admin)
            #expect(status == .created)
            let invited = try #require(body["accountId"])
            let link = try #require(try await waitForResetLink(in: auth.smtp))
            let token = String(link.split(separator: "=").last ?? "")
            (status, _) = try await auth.post(
                "/v1/dashboard/password/reset", ["token": token, "newPassword": "Fortune123", "confirmation": "Fortune123"])
            #expect(status == .ok)
            (status, body) = try await auth.post("/v1/dashboard/login", ["email": "ids-teller@example.com", "password": "Fortune123"])
            #expect(status == .ok)
            #expect(try Self.sessionId(body, "POST /v1/dashboard/login") == invited, "POST /v1/admin/invitations answers the token's subject")

            let keys = try await auth.db.client.query("SELECT key FROM outbox ORDER BY id", logger: auth.db.logger).decode(String.self).collectAll()
            #expect(Set([install, member, invited]).isSubset(of: Set(keys)), "events are keyed by the ids auth answers")
            #expect(keys.allSatisfy { $0 == $0.lowercased() }, "\(keys)")
        }
    }
}
