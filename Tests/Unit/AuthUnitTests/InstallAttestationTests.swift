import Foundation
import PlatformCore
import PlatformEvents
import Synchronization
import Testing

@testable import Auth

/// An install's Play Integrity verdict and what its account becomes : the token must be asked for by the app's
/// package with the install's nonce, recently, by the Play-recognised app on a device meeting device integrity, and it
/// attests one account. The wire format against a strict fake Google is the integration tests' (`AuthAttestationTests`).
@Suite("auth: install attestation")
struct InstallAttestationTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let package = "com.example.places"

    /// A verdict as Google writes it, each field changeable.
    static func verdict(
        requestPackage: String = package, appPackage: String = package, nonce: String? = base64URL(InstallAttestation.nonce(for: "i-1")),
        requestHash: String? = nil, askedAt: Date = now.addingTimeInterval(-20), app: String = "PLAY_RECOGNIZED",
        device: [String] = ["MEETS_BASIC_INTEGRITY", "MEETS_DEVICE_INTEGRITY"]
    ) -> PlayIntegrityVerdict {
        PlayIntegrityVerdict(
            tokenPayloadExternal: .init(
                requestDetails: .init(
                    requestPackageName: requestPackage, nonce: nonce, requestHash: requestHash,
                    timestampMillis: .init(Int64(askedAt.timeIntervalSince1970 * 1_000))),
                appIntegrity: .init(appRecognitionVerdict: app, packageName: appPackage),
                deviceIntegrity: .init(deviceRecognitionVerdict: device)))
    }

    static func base64URL(_ data: Data, padded: Bool = false) -> String {
        let text = data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return padded ? text : text.replacingOccurrences(of: "=", with: "")
    }

    static func refusal(_ verdict: PlayIntegrityVerdict) -> AttestationRefusal? {
        verdict.refusal(packageName: package, nonce: InstallAttestation.nonce(for: "i-1"), now: now, maxAge: 300)
    }

    @Test("U8: a recent token of the app's package, with the install's nonce, from Play on a sound device attests")
    func verdictAccepted() {
        #expect(Self.refusal(Self.verdict()) == nil)
        let nonce = InstallAttestation.nonce(for: "i-1")
        #expect(Self.refusal(Self.verdict(nonce: Self.base64URL(nonce, padded: true))) == nil, "Android's padded base64url")
        #expect(Self.refusal(Self.verdict(nonce: nil, requestHash: Self.base64URL(nonce))) == nil, "a standard request's hash")
        #expect(Self.refusal(Self.verdict(device: ["MEETS_STRONG_INTEGRITY"])) == nil)
        #expect(Self.refusal(Self.verdict(askedAt: Self.now.addingTimeInterval(-300))) == nil, "exactly the maximum age")
        #expect(Self.refusal(Self.verdict(askedAt: Self.now.addingTimeInterval(30))) == nil, "a clock a little ahead")
    }

    @Test("U8: another package, another install's nonce, an old token, an unrecognised app or a weak device is refused")
    func verdictRefused() {
        #expect(Self.refusal(Self.verdict(requestPackage: "com.example.weather")) == .wrongPackage)
        #expect(Self.refusal(Self.verdict(appPackage: "com.evil.clone")) == .wrongPackage)
        #expect(Self.refusal(Self.verdict(nonce: Self.base64URL(InstallAttestation.nonce(for: "i-2")))) == .wrongNonce)
        #expect(Self.refusal(Self.verdict(nonce: nil)) == .wrongNonce)
        #expect(Self.refusal(Self.verdict(nonce: "not base64 !")) == .wrongNonce)
        #expect(Self.refusal(Self.verdict(askedAt: Self.now.addingTimeInterval(-301))) == .stale)
        #expect(Self.refusal(Self.verdict(askedAt: Self.now.addingTimeInterval(3_600))) == .stale, "asked in the future")
        #expect(Self.refusal(Self.verdict(app: "UNRECOGNIZED_VERSION")) == .appNotRecognized)
        #expect(Self.refusal(Self.verdict(device: ["MEETS_BASIC_INTEGRITY"])) == .deviceNotTrusted)
        #expect(Self.refusal(Self.verdict(device: [])) == .deviceNotTrusted)
    }

    @Test("U8: Google's answer decodes with its int64 as a string, and fields it left out fail their checks")
    func verdictWireFormat() throws {
        let millis = Int64(Self.now.timeIntervalSince1970 * 1_000)
        let nonce = Self.base64URL(InstallAttestation.nonce(for: "i-1"))
        let json = """
            {"tokenPayloadExternal": {
              "requestDetails": {"requestPackageName": "\(Self.package)", "nonce": "\(nonce)", "timestampMillis": "\(millis)"},
              "appIntegrity": {"appRecognitionVerdict": "PLAY_RECOGNIZED", "packageName": "\(Self.package)",
                "certificateSha256Digest": ["6a6a1474b5cbbb2b1aa57e0bc3"], "versionCode": "42"},
              "deviceIntegrity": {"deviceRecognitionVerdict": ["MEETS_DEVICE_INTEGRITY"]},
              "accountDetails": {"appLicensingVerdict": "LICENSED"}}}
            """
        let verdict = try JSONDecoder().decode(PlayIntegrityVerdict.self, from: Data(json.utf8))
        #expect(verdict.askedAt == Self.now && Self.refusal(verdict) == nil)
        let bare = try JSONDecoder().decode(PlayIntegrityVerdict.self, from: Data(#"{"tokenPayloadExternal": {}}"#.utf8))
        #expect(Self.refusal(bare) == .wrongPackage)
    }

    /// Vouches for the tokens it was told, refuses the others.
    final class ScriptedAttestations: InstallAttesting {
        let good: Set<String>
        private let calls = Mutex(0)
        var asked: Int { calls.withLock { $0 } }

        init(good: Set<String>) { self.good = good }

        func verify(
            _ attestation: InstallAttestation, app: InstallApp, installId: String, now: Date
        ) async throws(AttestationRefusal) -> AttestedInstall {
            calls.withLock { $0 += 1 }
            guard good.contains(attestation.token) else { throw .wrongNonce }
            return AttestedInstall(fingerprint: attestation.fingerprint, usableUntil: now.addingTimeInterval(300))
        }
    }

    @Test("U8: an attested install's account is recorded attested; a refused or replayed token makes none, its tries kept")
    func attestedInstall() async throws {
        let credentials = MemoryCredentials()
        let attempts = MemoryAttempts()
        let signIns = MemorySignIns(credentials: credentials)
        let verifier = ScriptedAttestations(good: ["good"])
        let limit = AttemptLimit(maxFailures: 10, window: 3_600)
        let open = OpenInstallAccount(
            installs: signIns, tries: TryLedger(attempts: attempts, now: { [attempts] in attempts.now }),
            limits: .init(installsPerAddress: limit, guestsPerAddress: limit, perNetwork: limit, perSite: limit, address: limit),
            attestations: verifier)
        let net = ClientNetworks(network: "10.0.0.0/24", site: nil)
        let good = InstallAttestation(provider: .playIntegrity, token: "good")
        let account = try await open.install(app: .places, installId: "i-1", attestation: good, clientKey: "10.0.0.1", networks: net)
        #expect(account.kind == .install && account.attestedAt != nil)
        #expect(try await credentials.credentials(id: account.id)?.account.attestedAt != nil, "read back attested (the next token)")
        await #expect(throws: AttestationRefusal.reused, "one token attests one account") {
            try await open.install(app: .places, installId: "i-1", attestation: good, clientKey: "10.0.0.1", networks: net)
        }
        await #expect(throws: AttestationRefusal.wrongNonce) {
            try await open.install(
                app: .places, installId: "i-2", attestation: .init(provider: .playIntegrity, token: "bad"), clientKey: "10.0.0.1",
                networks: net)
        }
        #expect(attempts.count(.installAccount, subject: "10.0.0.1") == 3, "each refused check still counts against the limits")
        let plain = try await open.install(app: .places, installId: "i-3", clientKey: "10.0.0.1", networks: net)
        #expect(plain.attestedAt == nil && verifier.asked == 3, "no attestation, no provider call")

        let unconfigured = OpenInstallAccount(installs: signIns, tries: open.tries, limits: open.limits)
        await #expect(throws: AttestationRefusal.notConfigured) {
            try await unconfigured.install(app: .places, installId: "i-4", attestation: good, clientKey: "10.0.0.9", networks: net)
        }
        #expect(attempts.count(.installAccount, subject: "10.0.0.9") == 0, "refused before any try is taken")
    }

    @Test("U8: a refused attestation is 422 naming the check; one not checked here 422; one Google did not answer 503")
    func attestationAnswers() {
        let refused = AuthErrors.answer(AttestationRefusal.wrongNonce)
        #expect(refused.status == .unprocessableContent && refused.code == "attestation_refused" && refused.details?["reason"] == "wrong_nonce")
        #expect(AuthErrors.answer(AttestationRefusal.reused).details?["reason"] == "reused")
        #expect(AuthErrors.answer(AttestationRefusal.providerUnavailable).status == .serviceUnavailable)
        let notAccepted = AuthErrors.answer(AttestationRefusal.notConfigured)
        #expect(notAccepted.status == .unprocessableContent && notAccepted.code == "attestation_not_accepted")
    }
}
