import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// Issue 29 in auth itself: who may delete which account and how they prove it, the merge's refusals, and the
/// one event each end publishes.
@Suite("Account lifecycle: auth")
struct AuthAccountEndTests {
    @Test(
        "Issue 29 (U7): a survey account deletes itself only with its PIN, a dashboard account only with its password; install accounts need only their token"
    )
    func test_reauthentication() async throws {
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
            #expect(try await auth.count("SELECT count(*)::int FROM erased_accounts") == 2)
        }
    }

    @Test("Issue 29 (U5): an admin deletes a user's account but not their own; a merge refuses unknown tokens and accounts of other kinds")
    func test_adminDeletionAndMergeRefusals() async throws {
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
