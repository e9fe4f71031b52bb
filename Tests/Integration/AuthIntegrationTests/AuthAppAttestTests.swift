import Crypto
import Foundation
import HTTPTypes
import PlatformCore
import ServiceTestSupport
import TestSupport
import Testing

@testable import Auth

/// Install accounts earn trust (U5, U8): an iOS install's Apple App Attest attestation, checked as Apple documents it
/// against a CA of the test's own in Apple's exact layout (`FakeAppAttest`), makes its account attested and trusted at
/// once; every kind of bad attestation is refused with 422 and makes no account.
@Suite("auth: install attestation (App Attest)")
struct AuthAppAttestTests {
    static let appIds = "weather=ABCDE12345.com.example.weather,horoscope=ABCDE12345.com.example.horoscope"

    static func environment(_ apple: FakeAppAttest) throws -> [String: String] {
        ["APP_ATTEST_APP_IDS": appIds, "APP_ATTEST_ROOT_CERTIFICATES": try apple.rootPEM]
    }

    @Test("U8: a good App Attest attestation is accepted and trusted at once; its key attests one account only")
    func goodAttestation() async throws {
        let apple = try FakeAppAttest()
        try await AuthTestHarness.run(extraEnvironment: try Self.environment(apple)) { auth in
            let sent = try apple.attest(.init(appId: "ABCDE12345.com.example.weather", installId: "ios-good-1"))
            var (status, body) = try await auth.installAttested("weather", "ios-good-1", sent)
            #expect(status == .created, "\(body)")
            let id = try #require(body["account.id"])
            #expect(try AccessClaims(body).trusted == true)
            #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE id = '\(id)' AND attested_at IS NOT NULL") == 1)
            // The same key again attests nothing more, however its id is spelled: base64 leaves spare bits in the last
            // character, which a lenient decoder ignores.
            (status, body) = try await auth.installAttested("weather", "ios-good-1", sent)
            #expect(status == .unprocessableContent && body["error.details.reason"] == "reused", "\(body)")
            (status, body) = try await auth.installAttested("weather", "ios-good-1", (sent.token, Self.respelled(sent.keyId)))
            #expect(status == .unprocessableContent, "\(body)")
            #expect(["reused", "invalid_token"].contains(body["error.details.reason"] ?? ""), "\(body)")
            let spellings = [sent.keyId, Self.respelled(sent.keyId)].map { InstallAttestation(provider: .appAttest, token: "t", keyId: $0) }
            if Data(base64Encoded: Self.respelled(sent.keyId)) != nil {
                #expect(spellings[0].fingerprint == spellings[1].fingerprint, "one key, one fingerprint")
            }
            #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE kind = 'install'") == 1)
        }
    }

    @Test(
        "U8: another install's nonce, another app, a chain to another root, the development environment, another key's id, a used counter or garbage is refused; no account"
    )
    func badAttestationsRefused() async throws {
        let apple = try FakeAppAttest()
        try await AuthTestHarness.run(extraEnvironment: try Self.environment(apple)) { auth in
            let weather = "ABCDE12345.com.example.weather"
            func attestation(_ change: (inout FakeAppAttest.Attestation) -> Void) throws -> (token: String, keyId: String) {
                var attestation = FakeAppAttest.Attestation(appId: weather, installId: "ios-bad")
                change(&attestation)
                return try apple.attest(attestation)
            }
            let cases: [(String, (token: String, keyId: String), String)] = [
                ("another install's nonce", try attestation { $0.installId = "ios-other" }, "wrong_nonce"),
                ("another app", try attestation { $0.appId = "ABCDE12345.com.example.horoscope" }, "wrong_package"),
                ("a chain to another root", try attestation { $0.foreignChain = true }, "invalid_token"),
                ("the development environment", try attestation { $0.development = true }, "app_not_recognized"),
                ("another key's id", try attestation { $0.wrongKeyId = true }, "invalid_token"),
                ("a leaf certifying another key", try attestation { $0.leafKeyMismatch = true }, "invalid_token"),
                ("another credential id", try attestation { $0.credentialIdMismatch = true }, "invalid_token"),
                ("a counter past 0", try attestation { $0.counter = 1 }, "invalid_token"),
                ("not CBOR", ("bm90IGNib3I=", Data(repeating: 7, count: 32).base64EncodedString()), "invalid_token"),
            ]
            for (name, sent, reason) in cases {
                let (status, body) = try await auth.installAttested("weather", "ios-bad", sent)
                #expect(status == .unprocessableContent && body["error.code"] == "attestation_refused", "\(name): \(body)")
                #expect(body["error.details.reason"] == reason, "\(name): \(body)")
            }
            #expect(try await auth.count("SELECT count(*)::int FROM accounts WHERE kind = 'install'") == 0)
            // An app with no App ID configured takes none.
            let places = try apple.attest(.init(appId: "ABCDE12345.com.example.places", installId: "ios-places"))
            let (status, body) = try await auth.installAttested("places", "ios-places", places)
            #expect(status == .unprocessableContent && body["error.code"] == "attestation_not_accepted", "\(body)")
        }
    }

    /// The same bytes, the last character's spare bits changed.
    static func respelled(_ keyId: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var characters = Array(keyId)
        guard characters.count == 44, let index = alphabet.firstIndex(of: characters[42]) else { return keyId }
        characters[42] = alphabet[index ^ 1]
        return String(characters)
    }

    @Test("U8: without APP_ATTEST_APP_IDS an App Attest attestation is not accepted (422), not dropped")
    func notConfigured() async throws {
        let apple = try FakeAppAttest()
        try await AuthTestHarness.run { auth in
            let sent = try apple.attest(.init(appId: "ABCDE12345.com.example.weather", installId: "ios-1"))
            let (status, body) = try await auth.installAttested("weather", "ios-1", sent)
            #expect(status == .unprocessableContent && body["error.code"] == "attestation_not_accepted", "\(body)")
        }
    }

    @Test("U8: the built-in root is Apple's App Attestation Root CA, by its published fingerprint")
    func appleRoot() throws {
        let roots = try #require(AppAttestConfiguration.certificates(AppAttestConfiguration.appleRootPEM))
        let der = try #require(roots.first).serializeAsPEM().derBytes
        #expect(roots.count == 1)
        #expect(
            SHA256.hash(data: der).map { String(format: "%02x", $0) }.joined()
                == "1cb9823ba28ba6ad2d33a006941de2ae4f513ef1d4e831b9f7e0fa7b6242c932")
        #expect(AppAttestConfiguration.appIds("weather=ABCDE12345.com.example.weather")?[.weather] == "ABCDE12345.com.example.weather")
        for bad in [
            "weather=com.example.weather", "moon=ABCDE12345.com.x", "weather=ABCDE12345..x", "weather=ABCDE12345.com.x,weather=ABCDE12345.com.y",
        ] {
            #expect(AppAttestConfiguration.appIds(bad) == nil, "\(bad)")
        }
    }

    @Test("X1: the attestation object's CBOR never traps: lengths past the input, deep nesting and trailing bytes are refused")
    func cborFromOutside() {
        #expect(CBORValue(decoding: CBORWriter.map([("fmt", CBORWriter.text("apple-appattest"))]))?["fmt"] == .text("apple-appattest"))
        #expect(CBORValue(decoding: [0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == nil, "a byte string longer than Int")
        #expect(CBORValue(decoding: [0x9B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == nil, "an array longer than its bytes")
        #expect(CBORValue(decoding: [UInt8](repeating: 0x81, count: 40) + [0x00]) == nil, "nested too deep")
        #expect(CBORValue(decoding: [0x00, 0x00]) == nil, "trailing bytes")
        #expect(CBORValue(decoding: [0xF9, 0x00, 0x00]) == nil, "a float")
        #expect(CBORValue(decoding: []) == nil)
        #expect(AuthenticatorData([UInt8](repeating: 0, count: 54)) == nil, "shorter than its fixed part")
        #expect(AuthenticatorData([UInt8](repeating: 0, count: 53) + [0x00, 0x21] + [UInt8](repeating: 1, count: 32)) == nil)
    }
}

extension AuthTestHarness {
    /// `POST /v1/installs` as an iOS app sends it with App Attest.
    func installAttested(_ app: String, _ installId: String, _ sent: (token: String, keyId: String)) async throws -> (HTTPResponse.Status, JSONObject)
    {
        let body: [String: Any] = [
            "app": app, "installId": installId, "attestation": ["provider": "app-attest", "token": sent.token, "keyId": sent.keyId],
        ]
        return try await request(.post, "/v1/installs", body: try JSONSerialization.data(withJSONObject: body))
    }
}
