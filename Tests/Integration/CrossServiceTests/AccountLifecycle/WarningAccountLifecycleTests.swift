import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// U8 through auth, the broker and warning-detector: devices and notification settings follow an install into
/// the account it signs in to, and go with that account.
@Suite("Account lifecycle: warning-detector")
struct WarningAccountLifecycleTests {
    @Test("U9 (A4, A5): an install's device and settings follow it into its account; deleting the account removes them and refuses its token")
    func mergeThenDelete() async throws {
        let idp = FakeIdentityProvider()
        try await idp.serve {
            try await LifecycleAuth.run(oidc: idp) { auth, users in
                try await WarningTestHarness.run(extraEnvironment: ["WARNING_USERS_TOPIC": users], tokens: auth.tokens) { warnings in
                    let install = try await auth.install("weather")
                    let device = String(repeating: "ab", count: 32)
                    var (status, body) = try await warnings.request(
                        .put, "/v1/me/devices/\(device)", json: ["timeZone": "Europe/Berlin", "app": "weather"], bearer: install.access)
                    #expect(status == .ok, "\(body.raw ?? "")")
                    (status, body) = try await warnings.request(
                        .put, "/v1/me/notification-settings", json: ["currentLocation": ["warnings": false]], bearer: install.access)
                    #expect(status == .ok, "\(body.raw ?? "")")

                    let member = try await auth.signIn(idp, subject: "dave-\(UUID())", app: "weather")
                    #expect(try await auth.merge(install: install, into: member.access).0 == .ok)
                    #expect(
                        try await eventually {
                            try await warnings.request(.get, "/v1/me/devices", bearer: member.access).1["devices"].count == 1
                        }, "the install's phone is the account's")
                    (_, body) = try await warnings.request(.get, "/v1/me/notification-settings", bearer: member.access)
                    #expect(body["currentLocation"]["warnings"].bool == false, "\(body.raw ?? "")")
                    #expect(try await warnings.request(.get, "/v1/me/devices", bearer: install.access).0 == .unauthorized)
                    #expect(try await warnings.db.columnsMentioning(install.id).isEmpty)

                    #expect(try await auth.deleteOwnAccount(bearer: member.access).0 == .noContent)
                    #expect(try await eventually { try await warnings.request(.get, "/v1/me/devices", bearer: member.access).0 == .unauthorized })
                    #expect(try await warnings.count("SELECT count(*)::int FROM devices") == 0, "nothing more is pushed to a deleted account")
                    #expect(try await warnings.count("SELECT count(*)::int FROM notification_settings") == 0)
                    #expect(try await warnings.db.columnsMentioning(member.id).isEmpty)
                }
            }
        }
    }
}
