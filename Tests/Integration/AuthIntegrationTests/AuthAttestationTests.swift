import Foundation
import HTTPTypes
import ServiceTestSupport
import TestSupport
import Testing

/// Install accounts earn trust(U5, U8): an Android install's Play Integrity token, checked over real HTTP
/// against a fake Google as strict as the real one, makes its account attested and its tokens trusted at once; every
/// kind of bad token is refused with 422 and makes no account; an install without one is trusted only with age.
@Suite("auth: install attestation (Play Integrity)")
struct AuthAttestationTests {
    static let packages = "places=com.example.places,weather=com.example.weather,horoscope=com.example.horoscope"

    /// auth pointed at `google` (the fake's server), with `fake`'s credential unless told otherwise.
    static func environment(_ google: FakeHTTPServer, _ fake: FakePlayIntegrity, accessToken: String? = nil) -> [String: String] {
        [
            "PLAY_INTEGRITY_PACKAGES": packages, "PLAY_INTEGRITY_ACCESS_TOKEN": accessToken ?? fake.accessToken,
            "PLAY_INTEGRITY_BASE_URL": google.baseURL, "PLAY_INTEGRITY_ALLOW_HTTP_LOOPBACK": "true",
        ]
    }

    @Test("U8: a good Play Integrity token is accepted, recorded and trusted at once; it attests one account only")
    func goodTokenAttests() async throws {
        let fake = FakePlayIntegrity()
        try await withFakeHTTPServer(fake.handler) { google in
            try await AuthTestHarness.run(extraEnvironment: Self.environment(google, fake)) { auth in
                let token = fake.issue(.init(package: "com.example.places", nonce: FakePlayIntegrity.nonce(for: "android-good-1")))
                var (status, body) = try await auth.install("places", "android-good-1", attestation: token)
                #expect(status == .created, "\(body)")
                let id = try #require(body["account.id"])
                #expect(try AccessClaims(body).trusted == true)
                #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE id = '\(id)' AND attested_at IS NOT NULL") == 1)
                let call = try #require(google.requests.last)
                #expect(call.method == "POST" && call.path == "/v1/com.example.places:decodeIntegrityToken")
                #expect(call.headers["authorization"] == "Bearer \(fake.accessToken)" && call.body.contains(#""integrity_token""#))
                // The next token says so too.
                (status, body) = try await auth.post("/v1/sessions/refresh", ["refreshToken": try #require(body["refreshToken"])])
                #expect(status == .ok)
                #expect(try AccessClaims(body).trusted == true)
                // The same token again: a replay attests nothing and makes no account.
                (status, body) = try await auth.install("places", "android-good-1", attestation: token)
                #expect(status == .unprocessableContent && body["error.code"] == "attestation_refused", "\(body)")
                #expect(body["error.details.reason"] == "reused")
                #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE kind = 'install'") == 1)
            }
        }
    }

    @Test(
        "U8: another app's token, another install's nonce, an old token, a weak device, an unrecognised app or a made-up token is refused; no account"
    )
    func badTokensRefused() async throws {
        let fake = FakePlayIntegrity()
        try await withFakeHTTPServer(fake.handler) { google in
            try await AuthTestHarness.run(extraEnvironment: Self.environment(google, fake)) { auth in
                let nonce = FakePlayIntegrity.nonce(for: "android-bad")
                let cases: [(String, FakePlayIntegrity.Verdict?, String)] = [
                    // Google decodes a token under its own app's package only.
                    ("another app's token", .init(package: "com.example.weather", nonce: nonce), "invalid_token"),
                    ("another install's nonce", .init(package: "com.example.places", nonce: FakePlayIntegrity.nonce(for: "other")), "wrong_nonce"),
                    ("asked 10 minutes ago", .init(package: "com.example.places", nonce: nonce, askedAt: Date() - 600), "stale"),
                    (
                        "no device integrity", .init(package: "com.example.places", nonce: nonce, device: ["MEETS_BASIC_INTEGRITY"]),
                        "device_not_trusted"
                    ),
                    ("no verdict at all", .init(package: "com.example.places", nonce: nonce, device: []), "device_not_trusted"),
                    (
                        "a modified app", .init(package: "com.example.places", nonce: nonce, appRecognition: "UNRECOGNIZED_VERSION"),
                        "app_not_recognized"
                    ),
                    ("a made-up token", nil, "invalid_token"),
                ]
                for (name, verdict, reason) in cases {
                    let token = verdict.map(fake.issue) ?? "eyJ.made-up.token"
                    let (status, body) = try await auth.install("places", "android-bad", attestation: token)
                    #expect(status == .unprocessableContent && body["error.code"] == "attestation_refused", "\(name): \(body)")
                    #expect(body["error.details.reason"] == reason, "\(name)")
                }
                #expect(google.requests.count == cases.count, "each token was asked about")
                #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE kind = 'install'") == 0, "no account made")
                // Google's 400s are about the tokens: made-up ones do not open the provider's circuit for real installs.
                for index in 0..<5 { _ = try await auth.install("places", "android-bad", attestation: "eyJ.made-up.\(index)") }
                let good = fake.issue(.init(package: "com.example.places", nonce: FakePlayIntegrity.nonce(for: "android-real")))
                #expect(try await auth.install("places", "android-real", attestation: good).0 == .created)
                // Without an attestation the install gets its account, not trusted yet; with age it is.
                var (status, body) = try await auth.install("places", "android-plain")
                #expect(status == .created)
                #expect(try AccessClaims(body).trusted == false)
                let id = try #require(body["account.id"])
                let account = try #require(UUID(uuidString: id))
                try await auth.db.client.query(
                    "UPDATE accounts SET created_at = now() - interval '73 hours' WHERE id = \(account)", logger: auth.db.logger)
                (status, body) = try await auth.post("/v1/sessions/refresh", ["refreshToken": try #require(body["refreshToken"])])
                #expect(status == .ok)
                #expect(try AccessClaims(body).trusted == true, "older than INSTALL_TRUST_AFTER_HOURS")
            }
            // auth with a credential Google refuses: the attestation cannot be checked, 503, nothing made.
            try await AuthTestHarness.run(extraEnvironment: Self.environment(google, fake, accessToken: "ya29.revoked")) { auth in
                let token = fake.issue(.init(package: "com.example.places", nonce: FakePlayIntegrity.nonce(for: "android-1")))
                let (status, body) = try await auth.install("places", "android-1", attestation: token)
                #expect(status == .serviceUnavailable && body["error.code"] == "attestation_unavailable", "\(body)")
                #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE kind = 'install'") == 0)
            }
        }
        // No verifier configured: an attestation is not silently dropped, and the answer is the app's to act on (4xx).
        try await AuthTestHarness.run { auth in
            let (status, body) = try await auth.install("places", "android-1", attestation: "eyJ.any.token")
            #expect(status == .unprocessableContent && body["error.code"] == "attestation_not_accepted", "\(body)")
        }
    }
}

extension AuthTestHarness {
    /// `POST /v1/installs` as an app sends it, with a Play Integrity token when given.
    func install(_ app: String, _ installId: String, attestation: String? = nil) async throws -> (HTTPResponse.Status, JSONObject) {
        var body: [String: Any] = ["app": app, "installId": installId]
        if let attestation { body["attestation"] = ["provider": "play-integrity", "token": attestation] }
        return try await request(.post, "/v1/installs", body: try JSONSerialization.data(withJSONObject: body))
    }
}

/// The claims of an access token as any service reads them (decoded here without checking its signature: the
/// services' own verifier is what the cross-service tests use).
struct AccessClaims {
    let trusted: Bool?

    /// The claims of a session answer's access token.
    init(_ session: JSONObject) throws {
        let parts = (session["accessToken"] ?? "").split(separator: ".")
        guard parts.count == 3 else { throw Malformed() }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let claims = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Malformed()
        }
        trusted = claims["trusted"] as? Bool
    }

    struct Malformed: Error {}
}
