import Foundation
import Hummingbird
import JWTKit
import Logging
import Shared
import Synchronization
import Testing
import TestSupport

@Suite("auth: horoscope guests and OpenID Connect logins against a local JWKS server")
struct AuthHoroscopeTests {
    /// An identity provider: signs ID tokens and serves its public keys as a JWKS over real HTTP.
    final class FakeIdentityProvider: Sendable {
        let port = freePort()
        let issuer = "https://idp.test"
        private let current = Mutex<(kid: String, key: EdDSA.PrivateKey)>(("k1", try! EdDSA.PrivateKey(curve: .ed25519)))

        func rotate() throws {
            let key = try EdDSA.PrivateKey(curve: .ed25519)
            current.withLock { $0 = ("k2", key) }
        }

        var jwks: String {
            let (kid, key) = current.withLock { $0 }
            let x = key.publicKey.rawRepresentation.base64URLEncodedString()
            return #"{"keys":[{"kty":"OKP","crv":"Ed25519","alg":"EdDSA","use":"sig","kid":"\#(kid)","x":"\#(x)"}]}"#
        }

        func idToken(subject: String, audience: String = "horoscope-app", expiresIn: TimeInterval = 300, key: EdDSA.PrivateKey? = nil)
            async throws -> String
        {
            let (kid, currentKey) = current.withLock { $0 }
            let keys = JWTKeyCollection()
            await keys.add(eddsa: key ?? currentKey, kid: JWKIdentifier(string: kid))
            let claims = OIDCClaims(
                iss: IssuerClaim(value: issuer), sub: SubjectClaim(value: subject), aud: AudienceClaim(value: [audience]),
                exp: ExpirationClaim(value: Date().addingTimeInterval(expiresIn)), name: "Test User")
            return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
        }

        func serve<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
            let router = Router()
            router.get("jwks.json") { _, _ in
                Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: self.jwks)))
            }
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: Logger(label: "idp"))
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await app.runService(gracefulShutdownSignals: []) }
                defer { group.cancelAll() }
                try await Task.sleep(for: .milliseconds(300))
                return try await body()
            }
        }
    }

    struct OIDCClaims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var name: String
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    @Test("U5: guests get a guest session; ID tokens log in (same subject, same account), bad ones are refused, rotated keys are fetched")
    func test_U5_guestAndOpenIDConnect() async throws {
        let idp = FakeIdentityProvider()
        try await idp.serve {
            try await AuthTestHarness.run(extraEnvironment: [
                "OIDC_JWKS_URL": "http://127.0.0.1:\(idp.port)/jwks.json", "OIDC_ISSUER": idp.issuer,
                "OIDC_AUDIENCE": "horoscope-app", "OIDC_MIN_REFETCH_SECONDS": "0",
            ]) { auth in
                var (status, body) = try await auth.post("/v1/horoscope/guest", [:])
                #expect(status == .ok && body["account.role"] == "guest")

                (status, body) = try await auth.post("/v1/horoscope/oidc", ["idToken": try await idp.idToken(subject: "alice")])
                #expect(status == .ok && body["account.role"] == "user")
                let firstId = body["account.id"]
                (status, body) = try await auth.post("/v1/horoscope/oidc", ["idToken": try await idp.idToken(subject: "alice")])
                #expect(status == .ok && body["account.id"] == firstId, "the same subject is the same account")

                (status, body) = try await auth.post("/v1/horoscope/oidc", ["idToken": try await idp.idToken(subject: "alice", audience: "other-app")])
                #expect(status == .unauthorized && body["error.code"] == "invalid_id_token")
                (status, _) = try await auth.post("/v1/horoscope/oidc", ["idToken": try await idp.idToken(subject: "alice", expiresIn: -60)])
                #expect(status == .unauthorized)
                let stranger = try EdDSA.PrivateKey(curve: .ed25519)
                (status, _) = try await auth.post("/v1/horoscope/oidc", ["idToken": try await idp.idToken(subject: "alice", key: stranger)])
                #expect(status == .unauthorized)
                (status, body) = try await auth.post("/v1/horoscope/oidc", ["idToken": "not.a.token"])
                #expect(status == .unauthorized)

                // The provider rotates its key: the service refetches the JWKS and accepts the new signature.
                try idp.rotate()
                (status, body) = try await auth.post("/v1/horoscope/oidc", ["idToken": try await idp.idToken(subject: "bob")])
                #expect(status == .ok)
            }
        }
    }
}
