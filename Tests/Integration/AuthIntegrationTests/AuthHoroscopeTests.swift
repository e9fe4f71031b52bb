import Foundation
import Hummingbird
import JWTKit
import Logging
import PlatformCore
import PlatformHTTP
import PlatformPostgres
import ServiceTestSupport
import Synchronization
import TestSupport
import Testing

@testable import Auth

@Suite("auth: horoscope guests and OpenID Connect logins against a local JWKS server")
struct AuthHoroscopeTests {
    @Test("U5: guests get a guest session; ID tokens log in (same subject, same account), bad ones are refused, rotated keys are fetched")
    func guestAndOpenIDConnect() async throws {
        let idp = FakeIdentityProvider()
        try await idp.serve {
            try await AuthTestHarness.run(extraEnvironment: [
                "OIDC_JWKS_URL": "http://127.0.0.1:\(idp.port)/jwks.json", "OIDC_ISSUER": idp.issuer,
                "OIDC_AUDIENCE": "horoscope-app", "OIDC_MIN_REFETCH_SECONDS": "0", "OIDC_ALLOW_HTTP_LOOPBACK": "true",
            ]) { auth in
                var (status, body) = try await auth.post("/v1/horoscope/guest", [:])
                #expect(status == .ok && body["account.role"] == "user" && body["account.kind"] == "install", "a guest is an install account")

                (status, body) = try await login(auth, try await idp.idToken(subject: "alice", nonce: "n-1"), nonce: "n-1")
                #expect(status == .ok && body["account.role"] == "user")
                let firstId = body["account.id"]
                (status, body) = try await login(auth, try await idp.idToken(subject: "alice", nonce: "n-2"), nonce: "n-2")
                #expect(status == .ok && body["account.id"] == firstId, "the same subject is the same account")

                (status, body) = try await login(auth, try await idp.idToken(subject: "alice", audience: ["other-app"], nonce: "n-3"), nonce: "n-3")
                #expect(status == .unauthorized && body["error.code"] == "invalid_id_token")
                (status, _) = try await login(auth, try await idp.idToken(subject: "alice", nonce: "n-4", expiresIn: -60), nonce: "n-4")
                #expect(status == .unauthorized)
                let stranger = try EdDSA.PrivateKey(curve: .ed25519)
                (status, _) = try await login(auth, try await idp.idToken(subject: "alice", nonce: "n-5", key: stranger), nonce: "n-5")
                #expect(status == .unauthorized)
                (status, body) = try await auth.post("/v1/horoscope/oidc", ["idToken": "not.a.token"])
                #expect(status == .unauthorized)

                // The provider rotates its key: the service refetches the JWKS and accepts the new signature.
                try idp.rotate()
                (status, body) = try await login(auth, try await idp.idToken(subject: "bob", nonce: "n-6"), nonce: "n-6")
                #expect(status == .ok)
            }
        }
    }

    @Test("U8: one OpenID Connect client per app (OIDC_AUDIENCES); the token's aud or azp decides which app signed in")
    func oidcClientPerApp() async throws {
        let idp = FakeIdentityProvider(publishesAlgorithm: true)
        try await idp.serve {
            try await AuthTestHarness.run(extraEnvironment: [
                "OIDC_JWKS_URL": "http://127.0.0.1:\(idp.port)/jwks.json", "OIDC_ISSUER": idp.issuer,
                "OIDC_AUDIENCES": "weather=weather-client,places=places-client,horoscope=horoscope-app",
                "OIDC_MIN_REFETCH_SECONDS": "0", "OIDC_ALLOW_HTTP_LOOPBACK": "true",
            ]) { auth in
                func app(of subject: String) async throws -> String? {
                    let rows = try await auth.db.client.query(
                        "SELECT app FROM accounts WHERE external_subject LIKE \("%|" + subject)", logger: auth.db.logger)
                    return try await rows.decode(String?.self).collectAll().first ?? nil
                }
                var (status, body) = try await login(
                    auth, try await idp.idToken(subject: "wendy", audience: ["weather-client"], nonce: "w-1"), nonce: "w-1")
                #expect(status == .ok, "\(body)")
                #expect(try await app(of: "wendy") == "weather")
                (status, _) = try await login(auth, try await idp.idToken(subject: "pete", audience: ["places-client"], nonce: "p-1"), nonce: "p-1")
                let pete = try await app(of: "pete")
                #expect(status == .ok && pete == "places")
                (status, _) = try await login(
                    auth, try await idp.idToken(subject: "hana", audience: ["weather-client", "horoscope-app"], azp: "horoscope-app", nonce: "h-1"),
                    nonce: "h-1")
                let hana = try await app(of: "hana")
                #expect(status == .ok && hana == "horoscope", "azp picks the app among several audiences")
                (status, body) = try await login(
                    auth, try await idp.idToken(subject: "mallory", audience: ["someone-else"], nonce: "x-1"), nonce: "x-1")
                #expect(status == .unauthorized && body["error.code"] == "invalid_id_token")
            }
        }
    }

    @Test("U5: the nonce is checked and logs in once; several audiences need azp naming this app; keys without alg get their type's")
    func nonceAudienceAndKeyAlgorithms() async throws {
        let idp = FakeIdentityProvider(publishesAlgorithm: false)
        try await idp.serve {
            try await AuthTestHarness.run(extraEnvironment: [
                "OIDC_JWKS_URL": "http://127.0.0.1:\(idp.port)/jwks.json", "OIDC_ISSUER": idp.issuer,
                "OIDC_AUDIENCE": "horoscope-app", "OIDC_MIN_REFETCH_SECONDS": "0", "OIDC_ALLOW_HTTP_LOOPBACK": "true",
            ]) { auth in
                let token = try await idp.idToken(subject: "carol", nonce: "abc")
                var (status, body) = try await auth.post("/v1/horoscope/oidc", ["idToken": token])
                #expect(status == .unauthorized, "no nonce sent: \(body)")
                (status, _) = try await login(auth, token, nonce: "abd")
                #expect(status == .unauthorized, "another nonce")
                (status, _) = try await login(auth, try await idp.idToken(subject: "carol"), nonce: "abc")
                #expect(status == .unauthorized, "a token without a nonce")
                (status, body) = try await login(auth, token, nonce: "abc")
                #expect(status == .ok, "the key's algorithm came from its type (EdDSA): \(body)")
                (status, _) = try await login(auth, token, nonce: "abc")
                #expect(status == .unauthorized, "a nonce logs in once: the replay is refused")

                let shared = ["horoscope-app", "another-app"]
                (status, _) = try await login(auth, try await idp.idToken(subject: "carol", audience: shared, nonce: "m-1"), nonce: "m-1")
                #expect(status == .unauthorized, "several audiences without azp")
                (status, _) = try await login(
                    auth, try await idp.idToken(subject: "carol", audience: shared, azp: "another-app", nonce: "m-2"), nonce: "m-2")
                #expect(status == .unauthorized, "issued to another app")
                (status, _) = try await login(
                    auth, try await idp.idToken(subject: "carol", audience: shared, azp: "horoscope-app", nonce: "m-3"), nonce: "m-3")
                #expect(status == .ok)

                // A header naming another algorithm for the key is refused before any signature check.
                let parts = try await idp.idToken(subject: "carol", nonce: "m-4").split(separator: ".").map(String.init)
                let forgedHeader = Data(#"{"alg":"HS256","kid":"k1","typ":"JWT"}"#.utf8).base64URLEncodedString()
                (status, _) = try await login(auth, ([forgedHeader] + parts.dropFirst()).joined(separator: "."), nonce: "m-4")
                #expect(status == .unauthorized)
            }
        }
    }

    /// Posts an ID token with the nonce the app would send.
    @Test("U5, U8: guests from before are made install accounts of the horoscope app at start, each with user.role-changed")
    func legacyGuestsUpgraded() async throws {
        try await AuthTestHarness.run { auth in
            let guest = UUID()
            try await auth.db.client.query(
                "INSERT INTO accounts (id, kind, role) VALUES (\(guest), 'horoscope', 'guest')", logger: auth.db.logger)
            let admin = AdminStore(client: auth.db.client, logger: auth.db.logger, usersTopic: "test.users.unused")
            try await GuestUpgrade(admin: admin).run(logger: auth.db.logger)
            try await GuestUpgrade(admin: admin).run(logger: auth.db.logger)
            #expect(
                try await auth.count(
                    "SELECT count(*)::int FROM accounts WHERE id = '\(guest)' AND role = 'user' AND kind = 'install' AND app = 'horoscope'") == 1)
            let roleEvents = "SELECT count(*)::int FROM outbox WHERE event_type = 'user.role-changed' AND key = '\(AccountKey.of(guest))'"
            #expect(try await auth.count(roleEvents) == 1, "one event, however often it runs")
        }
    }

    func login(_ auth: AuthTestHarness, _ token: String, nonce: String) async throws -> (HTTPResponse.Status, JSONObject) {
        try await auth.post("/v1/horoscope/oidc", ["idToken": token, "nonce": nonce])
    }
}
