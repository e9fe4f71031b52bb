import Foundation
import PlatformCore
import ServiceTestSupport
import TestSupport
import Testing

/// U9 in auth itself: who may delete which account and how they prove it, the merge's refusals, and the
/// one event each end publishes.
@Suite("Account lifecycle: auth")
struct AuthAccountEndTests {
    @Test(
        "U9 (U7): a survey account deletes itself only with its PIN, a dashboard account only with its password; install accounts need only their token"
    )
    func reauthentication() async throws {
        try await LifecycleAuth.run { auth, _ in
            _ = try await auth.post("/v1/survey/signup", ["email": "leaving@hotel.com", "pin": "Ab12", "pinConfirmation": "Ab12"])
            let (_, login) = try await auth.post("/v1/survey/login", ["email": "leaving@hotel.com", "pin": "Ab12"])
            let survey = try AppSession(login)
            var (status, body) = try await auth.deleteOwnAccount(bearer: survey.access)
            #expect(status == .unauthorized && body["error.code"] == "reauthentication_failed")
            (status, body) = try await auth.deleteOwnAccount(bearer: survey.access, json: ["pin": "zz99"])
            #expect(status == .unauthorized && body["error.code"] == "reauthentication_failed")
            (status, _) = try await auth.deleteOwnAccount(bearer: survey.access, json: ["pin": "Ab12"])
            #expect(status == .noContent)
            (status, body) = try await auth.request(.get, "/v1/me", bearer: survey.access)
            #expect(status == .unauthorized, "the deleted account's token is refused at once")
            (status, body) = try await auth.post("/v1/survey/login", ["email": "leaving@hotel.com", "pin": "Ab12"])
            #expect(status == .notFound && body["error.code"] == "not_registered", "the address is free again")

            let admin = try await auth.adminToken()
            (status, body) = try await auth.deleteOwnAccount(bearer: admin, json: ["password": "wrong-one"])
            #expect(status == .unauthorized && body["error.code"] == "reauthentication_failed")

            let install = try await auth.install("horoscope")
            (status, _) = try await auth.request(.delete, "/v1/me", bearer: install.access)
            #expect(status == .noContent, "no body, no password: an install has only its token")
            #expect(try await auth.count("SELECT count(*)::int FROM outbox WHERE event_type = 'user.deleted'") == 2)
            #expect(try await auth.count("SELECT count(*)::int FROM erased_accounts WHERE keyed") == 2)
            // Keyed: the install's id alone does not find its row, as an unsalted hash of it would.
            let plain = ErasedAccounts.unkeyedHash(of: install.id)
            #expect(try await auth.count("SELECT count(*)::int FROM erased_accounts WHERE id_hash = '\(plain)'") == 0)
            let keyed = ErasedAccounts(key: ErasedAccountKey(secret: TestSecrets.erasedAccountsKey)).storedValue(of: install.id)
            #expect(try await auth.count("SELECT count(*)::int FROM erased_accounts WHERE id_hash = '\(keyed)'") == 1)
        }
    }

    @Test(
        "U9: install deletions from one address stop at INSTALL_DELETIONS_PER_ADDRESS with 429 too_many_attempts and Retry-After; the install stays"
    )
    func installDeletionsPerAddress() async throws {
        try await LifecycleAuth.run(extraEnvironment: ["INSTALL_DELETIONS_PER_ADDRESS": "2"]) { auth, _ in
            let installs = [try await auth.install("weather"), try await auth.install("places"), try await auth.install("horoscope")]
            for install in installs.prefix(2) {
                #expect(try await auth.request(.delete, "/v1/me", bearer: install.access).0 == .noContent)
            }
            let (status, retryAfter, body) = try await auth.client.execute(
                uri: "/v1/me", method: .delete, headers: [.authorization: "Bearer \(installs[2].access)"]
            ) { response in
                (response.status, response.headers[.retryAfter], JSONObject(String(buffer: response.body)))
            }
            #expect(status == .tooManyRequests && body["error.code"] == "too_many_attempts", "\(body.value)")
            #expect(body["error.message"] != nil, "the platform's error shape")
            #expect(retryAfter.flatMap { Int($0) }.map { (1...3_600).contains($0) } == true, "Retry-After: \(retryAfter ?? "none")")
            #expect(try await auth.request(.get, "/v1/me", bearer: installs[2].access).0 == .ok, "the refused install is kept")
            #expect(try await auth.count("SELECT count(*)::int FROM outbox WHERE event_type = 'user.deleted'") == 2)
        }
    }

    @Test("U9 (U5): an admin deletes a user's account but not their own; a merge refuses unknown tokens and accounts of other kinds")
    func adminDeletionAndMergeRefusals() async throws {
        try await LifecycleAuth.run { auth, _ in
            let admin = try await auth.adminToken()
            let user = try await auth.install("weather")
            var (status, body) = try await auth.request(.delete, "/v1/admin/users/\(user.id)", bearer: user.access)
            #expect(status == .forbidden)
            (status, _) = try await auth.request(.delete, "/v1/admin/users/\(user.id)", bearer: admin)
            #expect(status == .noContent)
            (status, body) = try await auth.request(.delete, "/v1/admin/users/\(user.id)", bearer: admin)
            #expect(status == .notFound, "\(body)")
            #expect(try await auth.refreshStatus(user.refresh).1 == "invalid_refresh_token")
            let (_, me) = try await auth.request(.get, "/v1/me", bearer: admin)
            let adminId = try #require(me["account.id"])
            (status, body) = try await auth.request(.delete, "/v1/admin/users/\(adminId)", bearer: admin)
            #expect(status == .conflict && body["error.code"] == "own_account")

            let install = try await auth.install("places")
            let other = try await auth.install("places")
            (status, body) = try await auth.post("/v1/me/merge-install", ["installRefreshToken": "not-a-token"], bearer: other.access)
            #expect(status == .unauthorized && body["error.code"] == "invalid_refresh_token")
            (status, body) = try await auth.merge(install: other, into: other.access)
            #expect(status == .conflict && body["error.code"] == "not_an_install", "an account is not merged into itself")
            let (_, adminLogin) = try await auth.post("/v1/dashboard/login", ["email": "admin@example.com", "password": "Start1234"])
            let adminSession = try AppSession(adminLogin)
            (status, body) = try await auth.merge(install: adminSession, into: other.access)
            #expect(status == .conflict && body["error.code"] == "not_an_install", "only an install account is merged away")
            (status, body) = try await auth.merge(install: install, into: other.access)
            #expect(status == .ok, "one install into another is allowed: \(body)")
            #expect(try await auth.count("SELECT count(*)::int FROM outbox WHERE event_type = 'user.merged'") == 1)
        }
    }
}
