import Foundation
import Logging
import PlatformCore
import PostgresNIO
import ServiceTestSupport
import TestSupport
import Testing

@testable import Auth

/// Install accounts that did nothing expire (U8): one made for a launch nobody came back to, whose first session ran
/// out, is deleted everywhere after `INSTALL_IDLE_DAYS`; one that was used, attested or paid for stays.
@Suite("auth: idle install accounts expire")
struct AuthIdleInstallTests {
    @Test("U8, U9: an unused install whose session ran out is deleted with user.deleted; a used, an attested, a young one stay")
    func idleInstallsExpire() async throws {
        try await AuthTestHarness.run { auth in
            var installs: [String: (id: String, refresh: String)] = [:]
            for name in ["idle", "used", "attested", "young"] {
                let (status, session) = try await auth.post("/v1/installs", ["app": "weather", "installId": "idle-test-\(name)"])
                #expect(status == .created)
                installs[name] = (try #require(session["account.id"]), try #require(session["refreshToken"]))
            }
            let used = try #require(installs["used"])
            let (renewed, _) = try await auth.post("/v1/sessions/refresh", ["refreshToken": used.refresh])
            #expect(renewed == .ok, "the used install renewed its session once")
            let ids = ["idle", "used", "attested"].compactMap { installs[$0]?.id }.map { "'\($0)'" }.joined(separator: ",")
            try await auth.db.client.query(
                PostgresQuery(unsafeSQL: "UPDATE accounts SET created_at = now() - interval '31 days' WHERE id IN (\(ids))"), logger: auth.db.logger)
            let attested = try #require(installs["attested"]).id
            try await auth.db.client.query(
                PostgresQuery(unsafeSQL: "UPDATE accounts SET attested_at = now() WHERE id = '\(attested)'"), logger: auth.db.logger)
            #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE created_at < now() - interval '30 days'") == 3)
            // The first sessions' refresh tokens have run out; the used install renewed its own, which stays live.
            try await auth.db.client.query(
                PostgresQuery(
                    unsafeSQL:
                        "UPDATE refresh_tokens SET expires_at = now() - interval '1 day' WHERE revoked_at IS NOT NULL OR account_id IN (\(ids))"),
                logger: auth.db.logger)
            try await auth.db.client.query(
                PostgresQuery(
                    unsafeSQL:
                        "UPDATE refresh_tokens SET expires_at = now() + interval '1 day' WHERE revoked_at IS NULL AND account_id = '\(used.id)'"),
                logger: auth.db.logger)

            let logger = Logger(label: "idle-install-test")
            let admin = AdminStore(client: auth.db.client, logger: logger, usersTopic: "auth.users")
            let expiry = IdleInstallExpiry(
                idle: IdleInstalls(client: auth.db.client, logger: logger),
                ends: AccountEndStore(
                    client: auth.db.client, logger: logger, usersTopic: "auth.users", admin: admin, erased: ErasedAccounts(key: .random())),
                idleDays: 30, startGate: StartGate(), logger: logger)
            #expect(try await expiry.expireOnce() == 1)
            #expect(try await expiry.expireOnce() == 0, "once")

            let idle = try #require(installs["idle"])
            #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE id = '\(idle.id)'") == 0)
            #expect(try await auth.count("SELECT count(*)::int FROM outbox WHERE event_type = 'user.deleted' AND key = '\(idle.id)'") == 1)
            #expect(try await auth.post("/v1/sessions/refresh", ["refreshToken": idle.refresh]).0 == .unauthorized)
            #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE kind = 'install'") == 3, "the used, attested and young stay")
        }
    }
}
